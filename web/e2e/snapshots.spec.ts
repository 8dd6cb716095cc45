import { test } from '@playwright/test';
import type { components } from '../../src/client';
import { callApi, expect, expectAccessible, expectFitsPhone, screenshot, services } from './fixtures';
import { ensureAdmin, linkSampleDatabase, signInToDashboard } from './fleet';

// Snapshots through the console: one taken on demand, an edit after it, what changed since (by
// entity), a rollback to it after a confirmation, followed to its end, and the undo of that rollback.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

type Rollback = components['schemas']['Rollback'];
type Resolved = components['schemas']['ResolvedList'];

const PROFILE = 'Movies 1080p';
let databaseId: number;

async function profileDescription(): Promise<unknown> {
  const list = await callApi<Resolved>(services.arrgo(), 'GET', `/pcd/${databaseId}/resolved/qualityProfile`);
  return (list.body.entities.find((e) => e.name === PROFILE)!.entity as { description?: unknown }).description;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureAdmin();
  databaseId = await linkSampleDatabase('snapshots-sample');
});

test('roll back to a snapshot after seeing what changed since, then undo the rollback', async ({ page }) => {
  test.setTimeout(120_000);
  await signInToDashboard(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Snapshots' }).click();
  await expect(page.getByRole('heading', { name: 'Snapshots', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Database' }).click();
  await page.getByRole('option', { name: 'snapshots-sample' }).click();
  await expect(page).toHaveURL(new RegExp(`database=${databaseId}`));
  await expect(page.getByText('No snapshot yet')).toBeVisible();

  // A snapshot on demand, with a note.
  await page.getByRole('button', { name: 'Take a snapshot' }).click();
  const dialog = page.getByRole('dialog', { name: 'Take a snapshot' });
  await dialog.getByRole('textbox', { name: 'Note' }).fill('Before the profile work');
  await dialog.getByRole('button', { name: 'Take the snapshot' }).click();
  const table = page.getByRole('table', { name: 'Snapshots' });
  const manual = table.getByRole('row', { name: /Before the profile work/ });
  await expect(manual).toContainText('Taken on demand');
  const snapshots = await callApi<{ items: { id: number; subtype: string }[] }>(services.arrgo(), 'GET', `/databases/${databaseId}/snapshots`);
  const snapshotId = snapshots.body.items[0].id;
  expect(snapshots.body.items[0].subtype).toBe('manual');

  // An edit after it (through the API, as another user would make it).
  const before = await profileDescription();
  const edited = await callApi(services.arrgo(), 'PATCH', `/pcd/${databaseId}/entities/quality_profile/${encodeURIComponent(PROFILE)}`, { changes: [{ path: 'description', value: 'Edited after the snapshot' }] });
  expect(edited.body).toEqual({ success: true, changed: true });
  await page.reload();
  await expect(table.getByRole('row', { name: /Before an edit/ })).toBeVisible();

  // What changed since the snapshot, entity by entity.
  await page.getByRole('button', { name: `Changes since snapshot ${snapshotId}` }).click();
  const changes = page.getByRole('table', { name: 'Entities changed since the snapshot' });
  const row = changes.getByRole('row', { name: new RegExp(PROFILE) });
  await expect(row).toContainText('quality_profile');
  await expect(row).toContainText('changed');
  await expect(row.getByRole('cell').nth(3)).toHaveText('description');
  await expect(changes.getByRole('row')).toHaveCount(2);
  await expect(row.getByRole('link', { name: PROFILE })).toHaveAttribute('href', `/configuration/${databaseId}/quality_profile/${encodeURIComponent(PROFILE)}`);
  await expectAccessible(page);
  await screenshot(page, 'snapshots');
  await expectFitsPhone(page);

  // The rollback asks first, saying what returns.
  await page.getByRole('button', { name: `Roll back to snapshot ${snapshotId}` }).click();
  const confirm = page.getByRole('dialog', { name: `Roll back to snapshot ${snapshotId}?` });
  await expect(confirm).toContainText('1 entity returns to how they were');
  await confirm.getByRole('button', { name: 'Roll back' }).click();
  const progress = page.getByRole('region', { name: /^Rollback \d+$/ });
  await expect(progress).toContainText('Done: 1 user op set aside, 0 active again.', { timeout: 30_000 });
  const rollbackId = Number(new URL(page.url()).searchParams.get('rollback'));
  const rollback = (await callApi<Rollback>(services.arrgo(), 'GET', `/databases/${databaseId}/rollbacks/${rollbackId}`)).body;
  expect(rollback).toMatchObject({ status: 'success', snapshotId, trigger: 'manual' });
  expect(await profileDescription()).toEqual(before);
  // Nothing differs from the snapshot any more.
  await expect(page.getByText('Nothing differs: the database is as it was when the snapshot was taken.')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'snapshots-rollback');

  // The undo, after its own confirmation: the edit is back.
  await progress.getByRole('button', { name: 'Undo this rollback' }).click();
  await page.getByRole('dialog', { name: `Undo rollback ${rollbackId}?` }).getByRole('button', { name: 'Undo this rollback' }).click();
  await expect(page).not.toHaveURL(new RegExp(`rollback=${rollbackId}(&|$)`));
  const undoRegion = page.getByRole('region', { name: /^Rollback \d+$/ });
  await expect(undoRegion).toContainText('Undo of a rollback', { timeout: 30_000 });
  await expect(undoRegion).toContainText('Done: 0 user ops set aside, 1 active again.', { timeout: 30_000 });
  const undoId = Number(new URL(page.url()).searchParams.get('rollback'));
  expect((await callApi<Rollback>(services.arrgo(), 'GET', `/databases/${databaseId}/rollbacks/${undoId}`)).body).toMatchObject({ status: 'success', trigger: 'undo', snapshotId: rollback.preSnapshotId });
  expect(await profileDescription()).toBe('Edited after the snapshot');
  await expect(changes.getByRole('row', { name: new RegExp(PROFILE) })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Recent rollbacks' }).getByRole('row')).toHaveCount(3);
});
