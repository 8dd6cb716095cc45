import path from 'node:path';
import { test } from '@playwright/test';
import type { components } from '../../src/client';
import { apiUntil, callApi, expect, expectAccessible, expectFitsPhone, screenshot, services } from './fixtures';
import { ensureAdmin, linkSampleDatabase, signInToDashboard } from './fleet';
import { ROOT } from './services';

// Reference guides through the console: a source read from a tiny guide checkout in this folder
// (loopback only), browsed with its scores per score set, and a custom format imported into a
// database after the preview of what will be created and which names exist already.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

type Source = components['schemas']['RefGuideSource'];
type Resolved = components['schemas']['ResolvedList'];

const SOURCE = 'fixture guide';
let databaseId: number;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureAdmin();
  databaseId = await linkSampleDatabase('guides-sample');
});

test('browse a guide with its scores per score set, preview an import, import a custom format and find it in the database', async ({ page }) => {
  await signInToDashboard(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Guides' }).click();
  await expect(page.getByRole('heading', { name: 'Guides', level: 1 })).toBeVisible();

  // The source is added from the page; a path the API refuses is shown in its words.
  await page.getByRole('button', { name: 'Add a source' }).click();
  const form = page.getByRole('dialog', { name: 'Add a guide source' });
  await form.getByRole('textbox', { name: 'Name' }).fill(SOURCE);
  await form.getByRole('radiogroup', { name: 'Where the guide is' }).getByText('Directory on the server').click();
  await form.getByRole('textbox', { name: 'Directory' }).fill('web/e2e/ref-guide');
  await form.getByRole('button', { name: 'Add the source' }).click();
  await expect(form.getByRole('alert')).toContainText('Invalid request: body.origin.path must be an absolute path');
  await form.getByRole('textbox', { name: 'Directory' }).fill(path.join(ROOT, 'web', 'e2e', 'ref-guide'));
  await form.getByRole('button', { name: 'Add the source' }).click();
  await expect(form).toBeHidden();
  const stored = (await callApi<Source[]>(services.arrgo(), 'GET', '/ref-guide/sources')).body.find((s) => s.name === SOURCE)!;
  expect(stored).toMatchObject({ arrType: 'movie_app', origin: { kind: 'local', path: path.join(ROOT, 'web', 'e2e', 'ref-guide') } });
  await apiUntil<Source>(services.arrgo(), `/ref-guide/sources/${stored.id}`, (s) => s.lastSyncedAt !== null);

  const sources = page.getByRole('table', { name: 'Guide sources' });
  const row = sources.getByRole('row', { name: new RegExp(SOURCE) });
  await expect(row).toContainText('ready');
  await expect(row).toContainText('2 custom formats, 1 groups, 1 profiles');
  await row.getByRole('button', { name: `Browse ${SOURCE}` }).click();

  // Formats with their score in the picked score set.
  const formats = page.getByRole('table', { name: `Custom formats of ${SOURCE}` });
  const boost = formats.getByRole('row', { name: /Guide HDR10 Boost/ });
  await expect(boost.getByRole('cell').nth(1)).toHaveText('500');
  await page.getByRole('combobox', { name: 'Score set' }).click();
  await page.getByRole('option', { name: 'sqp-1-2160p' }).click();
  await expect(boost.getByRole('cell').nth(1)).toHaveText('750');
  await expect(page).toHaveURL(/scoreSet=sqp-1-2160p/);

  // Groups and profiles.
  await page.getByRole('radiogroup', { name: 'Entity type' }).getByText('Groups').click();
  await expect(page.getByRole('table', { name: `Groups of ${SOURCE}` }).getByRole('row', { name: /\[Audio\] Guide audio/ })).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Entity type' }).getByText('Profiles').click();
  await expect(page.getByRole('table', { name: `Profiles of ${SOURCE}` }).getByRole('row', { name: /Guide 1080p/ })).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Entity type' }).getByText('Custom formats').click();

  // A format whose name the database has: the preview says so, and there is nothing to import.
  await formats.getByRole('button', { name: 'Atmos', exact: true }).click();
  const atmos = page.getByRole('region', { name: 'Atmos', exact: true });
  await atmos.getByRole('combobox', { name: 'Database' }).click();
  await page.getByRole('option', { name: 'guides-sample' }).click();
  await expect(atmos.getByRole('group', { name: 'Exists already or left alone' })).toContainText('custom_format Atmos: a custom format with this name exists; it is kept as it is');
  await expect(atmos.getByRole('button', { name: 'Nothing to import' })).toBeDisabled();

  // A new one: the preview lists what will be created, and the import creates exactly that.
  await formats.getByRole('button', { name: 'Guide HDR10 Boost' }).click();
  const panel = page.getByRole('region', { name: 'Guide HDR10 Boost', exact: true });
  await expect(panel.getByRole('table', { name: 'Scores of Guide HDR10 Boost per score set' })).toContainText('sqp-1-2160p750');
  const willCreate = panel.getByRole('group', { name: 'Will be created' });
  await expect(willCreate).toContainText('Will be created (2)');
  await expect(willCreate).toContainText('regular_expression Guide HDR10');
  await expect(willCreate).toContainText('custom_format Guide HDR10 Boost');
  expect((await callApi<unknown[]>(services.arrgo(), 'GET', `/pcd/${databaseId}/user-ops`)).body).toEqual([]);
  await expectAccessible(page);
  await screenshot(page, 'guides');
  await expectFitsPhone(page);

  await panel.getByRole('button', { name: 'Import 2 entities' }).click();
  const imported = panel.getByRole('alert').filter({ hasText: 'Imported' });
  await expect(imported.getByRole('link', { name: 'Guide HDR10 Boost' })).toHaveAttribute('href', `/configuration/${databaseId}/custom_format/${encodeURIComponent('Guide HDR10 Boost')}`);
  // The database has it, set by the user layer, with the guide's condition.
  const list = (await callApi<Resolved>(services.arrgo(), 'GET', `/pcd/${databaseId}/resolved/customFormat?includeLineage=true`)).body;
  const format = list.entities.find((e) => e.name === 'Guide HDR10 Boost')!;
  expect(format.exists).toBe(true);
  expect(format.lineage!.find((l) => l.path === 'name')).toMatchObject({ sourceLayer: 'user' });
  expect((format.entity as { conditions: { name: string; regularExpression?: string }[] }).conditions).toEqual([expect.objectContaining({ name: 'Guide HDR10', regularExpression: 'Guide HDR10' })]);
  // The preview runs again on the new state: the name exists now.
  await expect(panel.getByRole('group', { name: 'Exists already or left alone' })).toContainText('custom_format Guide HDR10 Boost: a custom format with this name exists');
  await expectAccessible(page);
});
