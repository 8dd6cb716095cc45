// Opening an entity's editor and saving it, for the browser tests of the workbench's editors.
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Opens an entity's page and waits for its editor. */
export async function openEditor(page: Page, databaseId: number, portableType: string, name: string) {
  await page.goto(`/configuration/${databaseId}/${portableType}/${encodeURIComponent(name)}`);
  await expect(page.getByRole('button', { name: `Save ${name}`, exact: true })).toBeVisible({ timeout: 30_000 });
}

/** Saves the editor and waits until it has no unsaved change. */
export async function saveEditor(page: Page, name: string) {
  await page.getByRole('button', { name: `Save ${name}`, exact: true }).click();
  await expect(page.getByText('No unsaved changes')).toBeVisible();
}
