import path from 'node:path';
import { test, type Page } from '@playwright/test';
import { ADMIN, apiUntil, callApi, expect, expectAccessible, screenshot, services, signIn } from './fixtures';
import { ROOT, startEmulatedApp, type EmulatedApp } from './services';

// Several databases on one Radarr: the editor orders them, the preview says where each entity came
// from and which database lost a collision. The sample PCD is linked twice; the second copy has its
// own Atmos pattern and its movie profile renamed, so both profiles score a format named Atmos.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

const SAMPLE_PCD = path.join(ROOT, 'examples', 'sample-pcd');
const arrgo = () => services.arrgo();

let radarr: EmulatedApp;
let instanceId: number;
const ids: Record<'one' | 'two', number> = { one: 0, two: 0 };

async function link(name: string): Promise<number> {
  const linked = await callApi<{ id: number }>(arrgo(), 'POST', '/databases', { name, source: { kind: 'local', path: SAMPLE_PCD } });
  expect(linked.status).toBe(201);
  await apiUntil<{ cache: { status: string } }>(arrgo(), `/databases/${linked.body.id}`, (db) => db.cache.status === 'ready');
  return linked.body.id;
}

test.beforeAll(async () => {
  const status = await callApi<{ setupRequired: boolean }>(arrgo(), 'GET', '/auth/status');
  if (status.body.setupRequired) expect((await callApi(arrgo(), 'POST', '/auth/setup', ADMIN)).status).toBe(201);
  radarr = await startEmulatedApp('radarr');
  ids.one = await link('multi-one');
  ids.two = await link('multi-two');
  expect((await callApi(arrgo(), 'PATCH', `/pcd/${ids.two}/entities/regular_expression/Atmos`, { changes: [{ path: 'pattern', value: '\\bATMOS[ ._-]?X\\b' }] })).status).toBe(200);
  expect((await callApi(arrgo(), 'PATCH', `/pcd/${ids.two}/entities/quality_profile/${encodeURIComponent('Movies 1080p')}`, { changes: [{ path: 'name', value: 'Movies Alt' }] })).status).toBe(200);
  const created = await callApi<{ id: number }>(arrgo(), 'POST', '/instances', { name: 'radarr-multi', arrType: 'movie_app', baseUrl: radarr.url, apiKey: radarr.apiKey });
  expect(created.status).toBe(201);
  instanceId = created.body.id;
});

test.afterAll(async () => {
  await radarr?.stop();
});

test.beforeEach(async ({ page }) => {
  await page.goto('/login');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

async function pick(page: Page, scope: ReturnType<Page['getByRole']>, field: string, option: string | RegExp) {
  await scope.getByRole('combobox', { name: field, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
  if (field === 'Quality profiles') await page.keyboard.press('Escape');
}

test('the editor lists two databases with their own selections and orders them with move buttons', async ({ page }) => {
  await page.goto(`/instances/${instanceId}`);
  await expect(page.getByRole('heading', { name: 'radarr-multi', level: 1 })).toBeVisible();
  const first = page.getByRole('region', { name: 'Database 1' });
  await pick(page, first, 'Database', /^multi-one/);
  await pick(page, first, 'Quality profiles', 'Movies 1080p');
  await pick(page, first, 'Delay profile', 'Standard');
  await page.getByRole('button', { name: 'Add a database' }).click();
  const second = page.getByRole('region', { name: 'Database 2' });
  await pick(page, second, 'Database', /^multi-two/);
  await pick(page, second, 'Quality profiles', 'Movies Alt');

  // Move the second database up and back: the regions follow, each keeps its own selection.
  await page.getByRole('button', { name: 'Move multi-two up' }).click();
  await expect(page.getByRole('region', { name: 'Database 1 (highest priority)' }).getByRole('combobox', { name: 'Database', exact: true })).toHaveValue(/^multi-two/);
  await expect(page.getByRole('button', { name: 'Move multi-two up' })).toBeDisabled();
  await page.getByRole('button', { name: 'Move multi-two down' }).click();
  await expect(page.getByRole('region', { name: 'Database 1 (highest priority)' }).getByRole('combobox', { name: 'Database', exact: true })).toHaveValue(/^multi-one/);
  await page.getByRole('button', { name: 'Save sync configuration' }).click();
  const saved = page.getByText('The sync configuration of radarr-multi was saved');
  await expect(saved).toBeVisible();
  const config = (await callApi<{ databases: { databaseId: number; selection: { qualityProfiles: string[]; delayProfile: string | null } }[] }>(arrgo(), 'GET', `/instances/${instanceId}/sync-config`)).body;
  expect(config.databases.map((d) => [d.databaseId, d.selection.qualityProfiles, d.selection.delayProfile])).toEqual([
    [ids.one, ['Movies 1080p'], 'Standard'],
    [ids.two, ['Movies Alt'], null],
  ]);
  await expectAccessible(page);
  // A notification under the pointer stays open: move it away.
  await page.mouse.move(0, 0);
  await expect(saved).toBeHidden({ timeout: 15_000 });
  await screenshot(page, 'instance-databases');
});

test("the preview names each entity's database and the collisions with the loser", async ({ page }) => {
  const created = await callApi<{ id: number }>(arrgo(), 'POST', '/sync/previews', { instanceId });
  expect(created.status).toBe(202);
  await apiUntil<{ status: string }>(arrgo(), `/sync/previews/${created.body.id}`, (p) => p.status === 'ready');
  await page.goto(`/sync/previews/${created.body.id}`);
  await expect(page.getByRole('heading', { name: 'Sync preview of radarr-multi', level: 1 })).toBeVisible();
  const databases = page.getByRole('region', { name: 'Databases' });
  await expect(databases).toContainText('1. multi-one, 2. multi-two');
  const atmos = databases.getByRole('table', { name: 'Collisions between databases' }).getByRole('row', { name: /Atmos/ });
  await expect(atmos.getByRole('cell')).toHaveText(['Atmos (custom format)', 'multi-one', 'multi-two', 'An earlier database overrides this format for profile Movies Alt']);
  const profiles = page.getByRole('region', { name: 'Quality profiles' });
  await expect(profiles.getByRole('article', { name: 'Atmos (custom format)', exact: true })).toContainText('from multi-one');
  await expect(profiles.getByRole('article', { name: 'Movies Alt (quality profile)', exact: true })).toContainText('from multi-two');
  await expectAccessible(page);
  await screenshot(page, 'sync-preview-databases');
});
