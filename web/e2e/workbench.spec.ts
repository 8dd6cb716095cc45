import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type Page } from '@playwright/test';
import type { components } from '../../src/client';
import { apiUntil, callApi, expect, expectAccessible, screenshot, services, signIn } from './fixtures';
import { ensureAdmin, SAMPLE_PCD, signInToDashboard } from './fleet';
import { ROOT } from './services';

// The configuration workbench's PCD browser and entity page: the list and its filters, an
// entity's layers and lineage, a base change under an edit resolved both ways (keep mine, take
// upstream), export and import with the refused field marked, and a disclosure section's mode kept
// across a reload and a new session. The database is a copy of the sample PCD in a temporary
// directory, so a test can change its base ops and pull, as a maintainer's commit would. (The file
// sorts after console.spec.ts: spec files run in name order, and its first test needs an arrgo
// without users.)
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

type EntityDetail = components['schemas']['EntityDetail'];
type UserOp = components['schemas']['UserOp'];

let source: string;
let databaseId: number;

const entityPath = (type: string, name: string) => `/configuration/${databaseId}/${type}/${encodeURIComponent(name)}`;
const arrgo = () => services.arrgo();

/** A base op in the copy's ops folder, then a pull: the repository moved. */
async function commitBaseOpAndPull(file: string, sql: string) {
  fs.writeFileSync(path.join(source, 'ops', file), sql);
  const pulled = await callApi<{ status: string }>(arrgo(), 'POST', `/databases/${databaseId}/pull?wait=true`);
  expect(pulled.status).toBe(200);
  expect(pulled.body.status).toBe('ready');
}

const atmosDescription = (id: number, guard: string, value: string) =>
  `-- --- BEGIN op ${id} ( update regular_expression "Atmos" )\nupdate "regular_expressions" set "description" = '${value}' where "name" = 'Atmos'${guard};\n-- --- END op ${id}\n`;

/** The row of a field in the entity page's fields table. */
const fieldRow = (page: Page, field: string) => page.getByRole('table', { name: 'Fields (resolved)' }).getByRole('row').filter({ has: page.getByRole('cell', { name: field, exact: true }) });

/** Filters are links in the address: the box shows its new state once the address has changed. */
async function toggle(page: Page, name: string, checked: boolean) {
  const box = page.getByRole('checkbox', { name });
  await box.click();
  await expect(box).toBeChecked({ checked });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureAdmin();
  source = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-e2e-pcd-'));
  fs.cpSync(path.join(ROOT, SAMPLE_PCD), source, { recursive: true });
  const linked = await callApi<{ id: number }>(arrgo(), 'POST', '/databases', { name: 'workbench-sample', source: { kind: 'local', path: source } });
  expect(linked.status).toBe(201);
  databaseId = linked.body.id;
  await apiUntil<{ cache: { status: string } }>(arrgo(), `/databases/${databaseId}`, (db) => db.cache.status === 'ready');
});

test.afterAll(() => {
  if (source) fs.rmSync(source, { recursive: true, force: true });
});

test.beforeEach(async ({ page }) => {
  test.setTimeout(180_000);
  await signInToDashboard(page);
});

test('the list searches and filters a database’s entities, and opens an entity with its layers and lineage', async ({ page }) => {
  expect((await callApi(arrgo(), 'PATCH', `/pcd/${databaseId}/entities/regular_expression/x265`, { changes: [{ path: 'description', value: 'H.265 video' }] })).status).toBe(200);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Configuration' }).click();
  await expect(page.getByRole('heading', { name: 'Configuration', level: 1 })).toBeVisible();
  await page.goto(`/configuration?database=${databaseId}&type=regularExpression`);
  const list = page.getByRole('table', { name: 'Entities' });
  await expect(list.getByRole('link', { name: 'Atmos', exact: true })).toBeVisible();
  await toggle(page, 'Edited by me', true);
  await expect(list.getByRole('link')).toHaveText(['x265']);
  await expect(list.getByRole('row', { name: /x265/ })).toContainText('edited by me');
  await toggle(page, 'Pending conflict', true);
  await expect(page.getByText('No entity matches')).toBeVisible();
  await toggle(page, 'Pending conflict', false);
  await toggle(page, 'Edited by me', false);
  await page.getByRole('textbox', { name: 'Search' }).fill('atm');
  await expect(list.getByRole('link')).toHaveText(['Atmos']);
  await page.getByRole('textbox', { name: 'Search' }).fill('');
  await expect(list.getByRole('link', { name: 'x265' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'configuration');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 860 });

  // The filters live in the address: a per-app type asks for its family.
  await page.goto(`/configuration?database=${databaseId}&type=naming&arrType=series_app`);
  await expect(page.getByRole('combobox', { name: 'App family' })).toHaveValue(/Sonarr/);
  await expect(page.getByRole('table', { name: 'Entities' }).getByRole('link').first()).toBeVisible();

  await page.goto(`/configuration?database=${databaseId}&type=regularExpression&q=x265`);
  await page.getByRole('table', { name: 'Entities' }).getByRole('link', { name: 'x265' }).click();
  await expect(page.getByRole('heading', { name: 'x265', level: 1 })).toBeVisible();
  // Lineage inline: the description was set by the user's op, the pattern by the base.
  const userOp = (await callApi<UserOp[]>(arrgo(), 'GET', `/pcd/${databaseId}/user-ops`)).body.find((op) => op.target.name === 'x265')!;
  await expect(fieldRow(page, 'description').getByTestId('lineage-layer')).toHaveText('user');
  await expect(fieldRow(page, 'description')).toContainText(`op ${userOp.id}`);
  await expect(fieldRow(page, 'pattern').getByTestId('lineage-layer')).toHaveText('base');
  // Detail on demand.
  await fieldRow(page, 'description').getByRole('button', { name: 'Lineage of description' }).click();
  const detail = page.getByRole('dialog');
  await expect(detail).toContainText('yes: the op names this column');
  await expect(detail).toContainText(`op ${userOp.id}`);
  await expectAccessible(page);
  await screenshot(page, 'configuration-entity');
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  await expect(fieldRow(page, 'description').getByRole('button', { name: 'Lineage of description' })).toBeFocused();

  // At phone width the page does not scroll sideways (wide tables scroll inside their frame).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'x265', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 860 });

  // The layer switch: the base without the edit, the user layer as the override.
  await page.getByRole('radiogroup', { name: 'Layer' }).getByText('Base', { exact: true }).click();
  await expect(page.getByRole('table', { name: 'Fields (base)' }).getByRole('row').filter({ has: page.getByRole('cell', { name: 'description', exact: true }) })).toHaveText(/HEVC encodes$/);
  await page.getByRole('radiogroup', { name: 'Layer' }).getByText('User', { exact: true }).click();
  const overrides = page.getByRole('table', { name: 'Overrides' });
  await expect(overrides.getByRole('row', { name: /description/ })).toContainText(/HEVC encodes.*H\.265 video/);
  await expect(page).toHaveURL(/layer=user/);
  await expectAccessible(page);

  // The user op list reverts the edit.
  await page.getByRole('button', { name: `Revert op ${userOp.id}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revert' }).click();
  await expect(page.getByText('No user ops')).toBeVisible();
  await expect(page.getByText('No override: the entity is as the base gives it.')).toBeVisible();
});

test('a base change under an edit: the pull brings a conflict, shown at its field, resolved by keeping mine, then by taking upstream', async ({ page }) => {
  expect((await callApi(arrgo(), 'PATCH', `/pcd/${databaseId}/entities/regular_expression/Atmos`, { changes: [{ path: 'description', value: 'Object-based audio' }] })).status).toBe(200);
  await commitBaseOpAndPull('4.atmos-description.sql', atmosDescription(401, ` and "description" IS NULL`, 'Dolby Atmos'));

  await page.goto(entityPath('regular_expression', 'Atmos'));
  await expect(page.getByRole('heading', { name: 'Atmos', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'A pending conflict' })).toContainText('The base changed under your edit of description');
  const row = fieldRow(page, 'description');
  await expect(row).toContainText('Upstream: Dolby Atmos');
  await expect(row).toContainText('Yours: Object-based audio');
  await expect(row.getByTestId('lineage-layer')).toHaveText('conflict');
  await expectAccessible(page);
  await screenshot(page, 'configuration-entity-conflict');

  // Keep mine: the user's value, written again on the new base.
  await row.getByRole('button', { name: 'Keep mine for description' }).click();
  await expect(page.getByText(/Kept your value/)).toBeVisible();
  await expect(fieldRow(page, 'description').getByTestId('lineage-layer')).toHaveText('user');
  await expect(fieldRow(page, 'description')).toContainText('Object-based audio');
  await expect(page.getByRole('alert').filter({ hasText: 'pending conflict' })).toHaveCount(0);
  const kept = (await callApi<EntityDetail>(arrgo(), 'GET', `/pcd/${databaseId}/entities/regular_expression/Atmos`)).body;
  expect(kept).toMatchObject({ conflict: false, entity: { description: 'Object-based audio' } });
  const opsAfterKeep = (await callApi<UserOp[]>(arrgo(), 'GET', `/pcd/${databaseId}/user-ops`)).body.filter((op) => op.target.name === 'Atmos');
  expect(opsAfterKeep.map((op) => op.outcome.status)).toEqual(['applied']);

  // The base moves again under the kept edit: take upstream this time.
  await commitBaseOpAndPull('5.atmos-description.sql', atmosDescription(402, '', 'Dolby Atmos audio'));
  await page.reload();
  const again = fieldRow(page, 'description');
  await expect(again).toContainText('Upstream: Dolby Atmos audio');
  await expect(again).toContainText('Yours: Object-based audio');
  // By keyboard this time.
  await again.getByRole('button', { name: 'Take upstream for description' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Took upstream/)).toBeVisible();
  await expect(fieldRow(page, 'description').getByTestId('lineage-layer')).toHaveText('base');
  await expect(fieldRow(page, 'description')).toContainText('Dolby Atmos audio');
  await expect(page.getByText('No user ops')).toBeVisible();
  const taken = (await callApi<EntityDetail>(arrgo(), 'GET', `/pcd/${databaseId}/entities/regular_expression/Atmos`)).body;
  expect(taken).toMatchObject({ conflict: false, pendingConflicts: [], entity: { description: 'Dolby Atmos audio' } });
});

test('export downloads portable JSON; an import with a refused field marks that field, a valid one is created', async ({ page }) => {
  await page.goto(entityPath('regular_expression', 'x265'));
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export x265 as JSON' }).click();
  const download = await downloading;
  const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as { entityType: string; data: Record<string, unknown> };
  expect(exported).toMatchObject({ entityType: 'regular_expression', data: { name: 'x265' } });

  await page.goto(`/configuration?database=${databaseId}&type=regularExpression`);
  const panel = page.getByRole('region', { name: 'Import an entity' });
  const { pattern: _pattern, ...withoutPattern } = exported.data;
  await panel.getByRole('textbox', { name: 'Portable JSON' }).fill(JSON.stringify({ ...exported, data: { ...withoutPattern, name: 'x265 copy' } }));
  await panel.getByRole('button', { name: 'Import' }).click();
  const refused = panel.getByRole('table', { name: 'Fields of the entity to import' }).getByRole('row', { name: /data\.pattern/ });
  await expect(refused).toContainText('(missing)');
  await expect(refused.getByRole('alert')).toHaveText('Invalid request: invalid regular_expression data: pattern: required field is missing');
  await expectAccessible(page);
  await screenshot(page, 'configuration-import-refused');

  // Uploading the export (renamed) imports it.
  const file = path.join(os.tmpdir(), `arrgo-e2e-import-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify({ ...exported, data: { ...exported.data, name: 'x265 copy' } }));
  const choosing = page.waitForEvent('filechooser');
  await panel.getByRole('button', { name: 'Upload a JSON file' }).click();
  await (await choosing).setFiles(file);
  // Chromium reads the chosen file when the page reads it, not when it is chosen: it stays until then.
  await expect(panel.getByRole('textbox', { name: 'Portable JSON' })).toHaveValue(/"pattern"/);
  fs.rmSync(file);
  await panel.getByRole('button', { name: 'Import' }).click();
  await panel.getByRole('link', { name: 'Open x265 copy' }).click();
  await expect(page.getByRole('heading', { name: 'x265 copy', level: 1 })).toBeVisible();
  await expect(fieldRow(page, 'pattern').getByTestId('lineage-layer')).toHaveText('user');
});

test('a section toggled to advanced stays advanced after a reload and in a new session of the same user', async ({ page, browser }) => {
  await page.goto(entityPath('regular_expression', 'x265 copy'));
  const section = page.getByRole('region', { name: 'User ops' });
  const sqlHeader = section.getByRole('columnheader', { name: 'SQL' });
  await expect(section.getByRole('table', { name: 'User ops' })).toBeVisible();
  await expect(sqlHeader).toHaveCount(0);
  await section.getByRole('switch', { name: 'Advanced' }).click();
  await expect(sqlHeader).toBeVisible();
  await expect(section.getByRole('table', { name: 'User ops' })).toContainText('INSERT INTO');
  await apiUntil<{ items: { section_key: string; mode: string }[] }>(arrgo(), '/ui-preferences?pageSize=200', (body) =>
    body.items.some((p) => p.section_key === 'configuration:entity:user-ops' && p.mode === 'advanced'),
  );

  await page.reload();
  await expect(page.getByRole('region', { name: 'User ops' }).getByRole('columnheader', { name: 'SQL' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'User ops' }).getByRole('switch', { name: 'Advanced' })).toBeChecked();

  // A new session (another browser context: no cookie shared) of the same user.
  const context = await browser.newContext({ baseURL: process.env.ARRGO_E2E_URL });
  const other = await context.newPage();
  await other.goto('/login');
  await signIn(other);
  await expect(other.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await other.goto(entityPath('regular_expression', 'x265 copy'));
  await expect(other.getByRole('region', { name: 'User ops' }).getByRole('columnheader', { name: 'SQL' })).toBeVisible();
  await expect(other.getByRole('region', { name: 'User ops' }).getByRole('switch', { name: 'Advanced' })).toBeChecked();
  await expectAccessible(other);
  await context.close();
});
