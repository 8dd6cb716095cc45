import { test } from '@playwright/test';
import type { components } from '../../src/client';
import { callApi, expect, expectAccessible, screenshot, services } from './fixtures';
import { addEmulatedRadarr, callApp, ensureAdmin, linkSampleDatabase, signInToDashboard, type FleetRadarr } from './fleet';

// Drift through the console: an emulated Radarr synced by arrgo, then changed by hand in the app;
// "check now" on the page shows the drifted field. The schedule settings are saved from the page.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

type Drift = components['schemas']['DriftDetail'];
type DriftSettings = components['schemas']['DriftSettings'];

let radarr: FleetRadarr;
let settingsBefore: DriftSettings;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureAdmin();
  const databaseId = await linkSampleDatabase('drift-sample');
  radarr = await addEmulatedRadarr('drift-radarr', databaseId);
  const synced = await callApi<{ status: string }>(services.arrgo(), 'POST', `/instances/${radarr.id}/sync?wait=true`, {});
  expect(synced.body.status).toBe('applied');
  const checked = await callApi<Drift>(services.arrgo(), 'POST', `/drift/${radarr.id}/check`);
  expect(checked.body.status).toBe('in-sync');
  settingsBefore = (await callApi<DriftSettings>(services.arrgo(), 'GET', '/drift/settings')).body;
});

test.afterAll(async () => {
  await callApi(services.arrgo(), 'PUT', '/drift/settings', { enabled: settingsBefore.enabled, intervalMinutes: settingsBefore.intervalMinutes });
  await radarr?.app.stop();
});

test.beforeEach(async ({ page }) => {
  await signInToDashboard(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Drift' }).click();
  await expect(page.getByRole('heading', { name: 'Drift', level: 1 })).toBeVisible();
});

test('the schedule: enabled with its interval from the page, as the API stores it, with its next run', async ({ page }) => {
  const schedule = page.getByRole('region', { name: 'Schedule' });
  const enabled = schedule.getByRole('switch', { name: 'Check every enabled instance on a schedule' });
  await expect(enabled).toBeChecked({ checked: settingsBefore.enabled });
  if (!settingsBefore.enabled) await enabled.click();
  await schedule.getByRole('textbox', { name: 'Every (minutes)' }).fill('720');
  await schedule.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByText('Drift schedule saved')).toBeVisible();
  const stored = (await callApi<DriftSettings>(services.arrgo(), 'GET', '/drift/settings')).body;
  expect(stored).toMatchObject({ enabled: true, intervalMinutes: 720 });
  expect(stored.nextRunAt).not.toBeNull();
  // The schedule runs on interval boundaries: within the last hour before one the page says minutes.
  await expect(schedule.locator(`time[datetime="${stored.nextRunAt}"]`)).toHaveText(/^in \d+ (?:hours?|minutes?)$/);
  await expect(schedule.getByRole('button', { name: 'Save schedule' })).toBeDisabled();
});

test('a hand edit in the app shows as drift, field by field, after "check now" on the page', async ({ page }) => {
  const card = page.getByRole('region', { name: 'drift-radarr', exact: true });
  await expect(card).toContainText('In sync');

  // Someone sets the delay profile's torrent delay back to 0 in Radarr itself.
  const profile = await callApp<Record<string, unknown>>(radarr.app, 'GET', '/delayprofile/1');
  expect(profile.torrentDelay).not.toBe(0);
  await callApp(radarr.app, 'PUT', '/delayprofile/1', { ...profile, torrentDelay: 0 });

  const checked = page.waitForResponse((r) => r.url().endsWith(`/drift/${radarr.id}/check`));
  await card.getByRole('button', { name: 'Check now: drift-radarr' }).click();
  expect((await checked).status()).toBe(200);
  await expect(card).toContainText('Drifted');
  const stored = (await callApi<Drift>(services.arrgo(), 'GET', `/drift/${radarr.id}`)).body;
  expect(stored.drift).toHaveLength(1);
  const [entry] = stored.drift;
  expect(entry).toMatchObject({ section: 'delayProfiles', entityType: 'delayProfile', category: 'drift' });
  const field = entry.fields.find((f) => f.field === 'torrentDelay')!;
  expect(field.current).toBe(0);
  await expect(card).toContainText(`${stored.counts.drifted} drifted, ${stored.counts.missing} missing, ${stored.counts.unmanaged} unmanaged`);

  // The entries open by themselves when something drifted: category, then section, then the field.
  const drifted = card.getByRole('region', { name: 'drift-radarr: drifted' });
  await expect(drifted.getByRole('region', { name: 'Delay profile' })).toBeVisible();
  const row = drifted.getByRole('table', { name: `${entry.name}: field changes` }).getByRole('row', { name: /^torrentDelay/ });
  await expect(row.getByRole('cell').nth(0)).toHaveText('0');
  await expect(row.getByRole('cell').nth(1)).toHaveText(String(field.desired));
  if (stored.counts.unmanaged) await expect(card.getByRole('region', { name: 'drift-radarr: unmanaged' })).toContainText(stored.unmanaged[0].name);
  await expectAccessible(page);
  await screenshot(page, 'drift');

  // The status filter keeps the drifted instance and leaves out the in-sync ones.
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Drifted' }).click();
  await expect(card).toBeVisible();
  const list = (await callApi<Drift[]>(services.arrgo(), 'GET', '/drift')).body;
  await expect(page.getByRole('button', { name: /^Check now: / })).toHaveCount(list.filter((d) => d.status === 'drifted').length);
});
