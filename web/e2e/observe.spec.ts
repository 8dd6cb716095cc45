import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type Page } from '@playwright/test';
import { ADMIN, apiUntil, callApi, expect, expectAccessible, expectFitsPhone, screenshot, signIn } from './fixtures';
import { startArrgo, startEmulatedApp, type Arrgo, type EmulatedApp } from './services';

// The operator's observation pages (Health, Timeline, Notifications, Settings) and progressive
// disclosure, on an arrgo of their own (its own Temporal dev server, SQLite and emulated Radarr):
// these tests regenerate its API key and fill its timeline, which the other files must not see.
test.describe.configure({ mode: 'serial' });

const SAMPLE_PCD = 'examples/sample-pcd';

let arrgo: Arrgo;
let radarr: EmulatedApp;
/** The instance, its database and its sync run, made through the API before the pages are opened. */
const fleet = { instanceId: 0, databaseId: 0, syncRunId: 0, failedRunId: 0 };

const target = () => ({ url: arrgo.url, apiKey: arrgo.apiKey });

async function open(page: Page, path: string) {
  await page.goto(`${arrgo.url}/login?next=${encodeURIComponent(path)}`);
  await signIn(page);
  await expect(page).toHaveURL(`${arrgo.url}${path}`);
}

/** docs/console/<name>.png of the whole page, from its top (the header stays where it belongs). */
async function picture(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  [arrgo, radarr] = await Promise.all([startArrgo(), startEmulatedApp('radarr')]);
  expect((await callApi(target(), 'POST', '/auth/setup', ADMIN)).status).toBe(201);

  const database = await callApi<{ id: number }>(target(), 'POST', '/databases', { name: 'observe-sample', source: { kind: 'local', path: SAMPLE_PCD } });
  expect(database.status).toBe(201);
  fleet.databaseId = database.body.id;
  await apiUntil<{ cache: { status: string } }>(target(), `/databases/${fleet.databaseId}`, (db) => db.cache.status === 'ready');

  const instance = await callApi<{ id: number }>(target(), 'POST', '/instances', { name: 'radarr-observe', arrType: 'movie_app', baseUrl: radarr.url, apiKey: radarr.apiKey });
  expect(instance.status).toBe(201);
  fleet.instanceId = instance.body.id;
  expect((await callApi(target(), 'PUT', `/instances/${fleet.instanceId}/sync-config`, { databaseId: fleet.databaseId, qualityProfiles: ['Movies 1080p'] })).status).toBe(200);
  // A first sync the app refuses (the emulator answers 400 to custom formats), then one that applies.
  const fault = await fetch(`${radarr.url}/__emulator/faults`, {
    method: 'POST',
    headers: { 'X-Api-Key': radarr.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ kind: 'status', status: 400, method: 'POST', path: '/customformat*' }),
  });
  expect(fault.status).toBeLessThan(300);
  const refused = await callApi<{ status: string }>(target(), 'POST', `/instances/${fleet.instanceId}/sync?wait=true`);
  expect(refused.body.status).toBe('failed');
  expect((await fetch(`${radarr.url}/__emulator/faults`, { method: 'DELETE', headers: { 'X-Api-Key': radarr.apiKey } })).status).toBeLessThan(300);
  const synced = await callApi<{ status: string }>(target(), 'POST', `/instances/${fleet.instanceId}/sync?wait=true`);
  expect(synced.body.status).toBe('applied');
  const history = await callApi<{ items: { id: number; status: string }[] }>(target(), 'GET', `/sync-history?instanceId=${fleet.instanceId}`);
  expect(history.body.items.map((run) => run.status)).toEqual(['success', 'failed']);
  [fleet.syncRunId, fleet.failedRunId] = history.body.items.map((run) => run.id);
  expect((await callApi(target(), 'POST', `/databases/${fleet.databaseId}/snapshots`, { note: 'Before the profile review' })).status).toBe(201);
  // Health is scored from the stored drift check.
  expect((await callApi(target(), 'POST', `/drift/${fleet.instanceId}/check`)).status).toBe(200);
});

test.afterAll(async () => {
  await Promise.all([arrgo?.stop(), radarr?.stop()]);
});

test('health: score, band and criteria; recompute, then the API\'s 429; the trend chart and its CSV export', async ({ page }) => {
  await open(page, '/health');
  await expect(page.getByRole('heading', { name: 'Health', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'radarr-observe' }).click();
  await expect(page.getByRole('heading', { name: 'Health of radarr-observe', level: 1 })).toBeVisible();

  // The first recompute is stored and shown; the second, moments later, is refused in the API's words.
  await page.getByRole('button', { name: 'Recompute' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Recomputed' })).toBeVisible();
  const latest = await callApi<{ overall: { score: number; band: string; criteria: { label: string; score: number | null; weight: number; contribution: number; detail: string[] }[] } }>(
    target(),
    'GET',
    `/config-health/${fleet.instanceId}`,
  );
  const { overall } = latest.body;
  await page.getByRole('button', { name: 'Recompute' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Not recomputed' });
  await expect(refusal).toContainText(`Health of instance ${fleet.instanceId} was recomputed moments ago; try again in`);
  await expect(refusal).toContainText(/Try again in \d+ s\./);

  await expect(page.getByText(String(overall.score), { exact: true }).first()).toBeVisible();
  const criteria = page.getByRole('region', { name: 'Criteria' });
  for (const criterion of overall.criteria) {
    await expect(criteria.getByRole('row', { name: new RegExp(`^${criterion.label} `) })).toContainText(`${criterion.score ?? 'skipped'}${criterion.weight}`);
  }
  // The advanced detail adds each criterion's contribution.
  await expect(criteria.getByRole('columnheader', { name: 'Contribution' })).toHaveCount(0);
  await criteria.getByRole('switch', { name: 'Advanced' }).click();
  await expect(criteria.getByRole('columnheader', { name: 'Contribution' })).toBeVisible();

  // The trend: one point per stored snapshot, drawn by the chart loaded with this section.
  const trend = await callApi<{ counts: { points: number; measured: number } }>(target(), 'GET', `/config-health/${fleet.instanceId}/trends?days=30`);
  const trendRegion = page.getByRole('region', { name: 'Trend' });
  await expect(trendRegion.getByRole('img', { name: new RegExp(`${trend.body.counts.points} points?, ${trend.body.counts.measured} measured`) })).toBeVisible();
  await expect(trendRegion.getByRole('img').locator('svg').first()).toBeVisible();

  // CSV export: a plain download through the session cookie.
  const [download] = await Promise.all([page.waitForEvent('download'), trendRegion.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`${fleet.instanceId}.*\\.csv$`));
  const csv = fs.readFileSync(await download.path(), 'utf8').trim().split('\n');
  expect(csv.length).toBe(trend.body.counts.points + 1);

  await criteria.getByRole('switch', { name: 'Advanced' }).click();
  await expectAccessible(page);
  await picture(page, 'health');
  await expectFitsPhone(page);

  await page.getByRole('link', { name: 'All instances' }).click();
  const listed = (await callApi<{ instances: { health: { band: string; score: number | null } }[] }>(target(), 'GET', '/fleet/overview')).body.instances[0].health;
  expect(listed.band).toBe(overall.band);
  await expect(page.getByRole('row', { name: /radarr-observe/ })).toContainText(`${listed.band}${listed.score ?? '–'}`);
  await expectAccessible(page);
});

test('timeline: the sync run with its links, filters in the address, and a note added, edited and deleted', async ({ page }) => {
  await open(page, '/timeline');
  const event = page.getByRole('article', { name: `Sync ${fleet.syncRunId}` });
  await expect(event).toContainText('Success');
  await expect(event.getByRole('link', { name: 'radarr-observe' })).toHaveAttribute('href', `/instances/${fleet.instanceId}`);
  await expect(event.getByRole('link', { name: `Sync ${fleet.syncRunId} in the API` })).toHaveAttribute('href', /^\/api\/v1\/sync\/previews\/\d+$/);
  await expect(event.getByRole('link', { name: `Sync ${fleet.syncRunId} in the Temporal Web UI` })).toHaveAttribute('href', /\/namespaces\/default\/workflows\//);
  // A failed run says why, in the API's pre-authored words.
  const failedRun = (await callApi<{ items: { id: string; reason: string | null }[] }>(target(), 'GET', '/timeline?source=sync&status=failed')).body.items[0];
  expect(failedRun.id).toBe(`sync:${fleet.failedRunId}`);
  expect(failedRun.reason).toBeTruthy();
  await expect(page.getByRole('article', { name: `Sync ${fleet.failedRunId}` })).toContainText(`Failed`);
  await expect(page.getByRole('article', { name: `Sync ${fleet.failedRunId}` })).toContainText(`Why: ${failedRun.reason}`);
  const feed = await callApi<{ counts: Record<string, number> }>(target(), 'GET', '/timeline');
  await expect(page.getByRole('group', { name: 'Events per source' })).toContainText(`Sync: ${feed.body.counts.sync}`);

  // Filters go to the API as they are, and into the address.
  await page.getByRole('combobox', { name: 'Sources' }).click();
  await page.getByRole('option', { name: 'Snapshot' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/[?&]source=snapshot/);
  await expect(event).toHaveCount(0);
  await expect(page.getByRole('article', { name: /^Snapshot \d+$/ })).toContainText('observe-sample');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByRole('textbox', { name: 'Search' }).fill('radarr-observe');
  await expect(page).toHaveURL(/[?&]q=radarr-observe/);
  await expect(event).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('no such thing');
  await expect(page.getByText('No event matches these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  // A contradictory filter is refused by the API, in its words.
  await page.goto(`${arrgo.url}/timeline?instanceId=${fleet.instanceId}&databaseId=${fleet.databaseId}`);
  await expect(page.getByRole('alert')).toContainText('Invalid request');

  // Notes: the timeline's only stored state.
  await page.goto(`${arrgo.url}/timeline`);
  const notesOf = async () => {
    const { body } = await callApi<{ items: { id: string; annotations: { body: string }[] }[] }>(target(), 'GET', `/timeline?source=sync&instanceId=${fleet.instanceId}`);
    return body.items.find((item) => item.id === `sync:${fleet.syncRunId}`)!.annotations.map((a) => a.body);
  };
  await event.getByRole('button', { name: 'Add a note' }).click();
  await event.getByRole('textbox', { name: 'Note' }).fill('Synced after the profile review');
  await event.getByRole('button', { name: 'Add note' }).click();
  await expect(event.getByRole('figure', { name: 'Note' })).toContainText('Synced after the profile review');
  await expect.poll(notesOf).toEqual(['Synced after the profile review']);
  await expectAccessible(page);
  await picture(page, 'timeline');

  await event.getByRole('button', { name: 'Edit note' }).click();
  await event.getByRole('textbox', { name: 'Note' }).fill('Synced after the second profile review');
  await event.getByRole('button', { name: 'Save note' }).click();
  await expect(event.getByRole('figure', { name: 'Note' })).toContainText('Synced after the second profile review');
  await expect.poll(notesOf).toEqual(['Synced after the second profile review']);

  await event.getByRole('button', { name: 'Delete note' }).click();
  await page.getByRole('dialog', { name: 'Delete this note?' }).getByRole('button', { name: 'Delete note' }).click();
  await expect(event.getByRole('figure', { name: 'Note' })).toHaveCount(0);
  await expect.poll(notesOf).toEqual([]);
  await expectFitsPhone(page);
});

test('notifications: a webhook channel (URL and secret never shown back), its test delivered to a loopback receiver, edit, disable, and the delivery log', async ({ page }) => {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const secret = randomBytes(24).toString('hex');
  try {
    await open(page, '/notifications');
    await expect(page.getByText('No channels yet')).toBeVisible();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByRole('dialog', { name: 'Add a notification channel' });
    await form.getByRole('textbox', { name: 'Name' }).fill('observe-hook');
    await form.getByRole('textbox', { name: 'URL' }).fill(receiverUrl);
    await form.getByLabel('Signing secret').fill(secret);
    await form.getByRole('button', { name: 'Add channel' }).click();
    await expect(form).toBeHidden();

    const channels = await callApi<{ items: Record<string, unknown>[] }>(target(), 'GET', '/notifications/channels');
    expect(channels.body.items).toHaveLength(1);
    const channel = channels.body.items[0];
    expect(channel).toMatchObject({ name: 'observe-hook', kind: 'webhook', urlSet: true, secretSet: true, enabled: true });
    expect(Object.keys(channel)).not.toContain('url');
    expect(Object.keys(channel)).not.toContain('secret');
    const row = page.getByRole('row', { name: /observe-hook/ });
    await expect(row).toContainText('All events');
    await expect(page.getByText(receiverUrl)).toHaveCount(0);

    // Test: the delivery reaches the receiver, signed with the secret, and the page says so.
    await row.getByRole('button', { name: 'Test observe-hook' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Test of observe-hook: delivered' })).toContainText('HTTP 204');
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request.headers['x-arrgo-event']).toBe('test');
    const expected = createHmac('sha256', secret).update(`${request.headers['x-arrgo-timestamp']}.${request.body}`).digest('hex');
    expect(request.headers['x-arrgo-signature']).toBe(`sha256=${expected}`);
    const log = page.getByRole('region', { name: 'Delivery log' });
    await expect(log.getByRole('row', { name: /observe-hook/ })).toContainText('Delivered');

    // The attempts are advanced detail.
    await expect(log.getByRole('columnheader', { name: 'Attempts' })).toHaveCount(0);
    await log.getByRole('switch', { name: 'Advanced' }).click();
    await expect(log.getByRole('row', { name: /observe-hook/ })).toContainText('Attempt 1');
    await expect(log.getByRole('row', { name: /observe-hook/ })).toContainText('delivered (HTTP 204)');
    await expect(log.getByRole('row', { name: /observe-hook/ })).toContainText(String(request.headers['x-arrgo-delivery']));

    // Edit: the URL and secret fields start empty (kept unless typed again).
    await row.getByRole('button', { name: 'Edit observe-hook' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit observe-hook' });
    await expect(edit.getByRole('textbox', { name: 'URL' })).toHaveValue('');
    await expect(edit.getByText('A URL is stored (never shown). Leave empty to keep it.')).toBeVisible();
    await expect(edit.getByLabel('Signing secret')).toHaveValue('');
    await edit.getByRole('textbox', { name: 'Name' }).fill('observe-hook-2');
    await edit.getByRole('checkbox', { name: 'Drift resolved' }).uncheck();
    await edit.getByRole('button', { name: 'Save channel' }).click();
    await expect(edit).toBeHidden();
    const edited = await callApi<{ name: string; events: string[]; urlSet: boolean }>(target(), 'GET', `/notifications/channels/${channel.id}`);
    expect(edited.body.name).toBe('observe-hook-2');
    expect(edited.body.events).not.toContain('drift.resolved');
    expect(edited.body.events).toHaveLength(9);
    expect(edited.body.urlSet).toBe(true);

    // Disable and enable, by keyboard.
    const enabled = page.getByRole('switch', { name: 'observe-hook-2 enabled' });
    await enabled.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await callApi<{ enabled: boolean }>(target(), 'GET', `/notifications/channels/${channel.id}`)).body.enabled).toBe(false);
    await expect(enabled).toHaveAttribute('aria-busy', 'false');
    await expect(enabled).not.toBeChecked();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await callApi<{ enabled: boolean }>(target(), 'GET', `/notifications/channels/${channel.id}`)).body.enabled).toBe(true);

    // The log's filters.
    await log.getByRole('combobox', { name: 'Delivery status' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await expect(log.getByText('No deliveries')).toBeVisible();
    await log.getByRole('combobox', { name: 'Delivery status' }).click();
    await page.getByRole('option', { name: 'Delivered' }).click();
    await expect(log.getByRole('row', { name: /observe-hook/ })).toBeVisible();

    await expectAccessible(page);
    await picture(page, 'notifications');
    await expectFitsPhone(page);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('progressive disclosure: the mode is stored and opens again after a reload; a concurrent change is merged (409, then one retry)', async ({ page }) => {
  await open(page, '/notifications');
  const log = page.getByRole('region', { name: 'Delivery log' });
  const advanced = log.getByRole('switch', { name: 'Advanced' });
  // Left open by the previous test, stored through PATCH /ui-preferences.
  await expect(advanced).toBeChecked();
  const stored = async () => (await callApi<{ items: { section_key: string; mode: string; updated_at: string }[] }>(target(), 'GET', '/ui-preferences')).body.items.find((p) => p.section_key === 'notifications:deliveries:attempts');
  expect((await stored())?.mode).toBe('advanced');
  await page.reload();
  await expect(advanced).toBeChecked();
  await expect(log.getByRole('columnheader', { name: 'Attempts' })).toBeVisible();

  // Someone else (another tab, the API) closes it: this page's token is stale. Its next write is
  // refused with the stored row, and sent once more on top of it.
  const before = await stored();
  expect((await callApi(target(), 'PATCH', '/ui-preferences', { section_key: 'notifications:deliveries:attempts', mode: 'basic', expected_updated_at: before!.updated_at })).status).toBe(200);
  const answers: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/api/v1/ui-preferences') && response.request().method() === 'PATCH') answers.push(response.status());
  });
  await advanced.click(); // basic here
  await expect.poll(() => answers).toEqual([409, 200]);
  await advanced.click(); // advanced again, on the fresh token
  await expect.poll(() => answers).toEqual([409, 200, 200]);
  await expect.poll(async () => (await stored())?.mode).toBe('advanced');
  await expect(log.getByText("The section's setting was not saved")).toHaveCount(0);

  // Each opening of the advanced detail is counted (in batches) for the section's complexity tier:
  // one in the previous test, one here.
  await expect
    .poll(async () => (await callApi<{ items: { section_key: string; advanced_toggle_count: number }[] }>(target(), 'GET', '/complexity-tiers')).body.items.find((t) => t.section_key === 'notifications:deliveries:attempts')?.advanced_toggle_count)
    .toBe(2);
});

test('settings: the health report, schedules saved through the API, a tier suggestion dismissed, the API key shown and regenerated', async ({ page }) => {
  await open(page, '/settings');
  const health = await callApi<{ version: string; temporalUi: string; components: { sqlite: { migration: number } } }>(target(), 'GET', '/health?verbose=true');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  const system = page.getByRole('region', { name: 'System' });
  await expect(system).toContainText(health.body.version);
  await expect(system.getByRole('row', { name: /^Database/ })).toContainText('healthy');
  await expect(system.getByRole('row', { name: /^Outbox/ })).toContainText('Nothing waiting for Temporal');
  await expect(page.getByRole('link', { name: 'API documentation' })).toHaveAttribute('href', '/docs/');
  await expect(page.getByRole('link', { name: 'Temporal Web UI' })).toHaveAttribute('href', health.body.temporalUi);

  // The advanced detail, opened five times, earns the section a suggestion: a banner to dismiss.
  const advanced = system.getByRole('switch', { name: 'Advanced' });
  for (let i = 0; i < 5; i++) {
    await advanced.click();
    await expect(advanced).toBeChecked();
    await advanced.click();
    await expect(advanced).not.toBeChecked();
  }
  await advanced.click();
  await expect(system.getByRole('row', { name: /^Database/ })).toContainText(`migration ${health.body.components.sqlite.migration}`);
  const banner = system.getByRole('alert').filter({ hasText: 'Try the intermediate tier for System?' });
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Dismiss the suggestion for System' }).click();
  await expect(banner).toBeHidden();
  const tier = async () => (await callApi<{ items: { section_key: string; tier: string; suggestion_dismissed_at: string | null; advanced_toggle_count: number }[] }>(target(), 'GET', '/complexity-tiers')).body.items.find((t) => t.section_key === 'settings:system:components');
  await expect.poll(async () => (await tier())?.suggestion_dismissed_at ?? null).not.toBeNull();
  await expect.poll(async () => (await tier())?.advanced_toggle_count).toBe(6);
  expect((await tier())?.tier).toBe('beginner');
  await page.reload();
  await expect(system.getByRole('switch', { name: 'Advanced' })).toBeChecked();
  await expect(system.getByRole('alert')).toHaveCount(0);

  // Schedules: each form saves what the API then keeps; a refusal is the API's message.
  const drift = page.getByRole('region', { name: 'Drift checks' });
  await drift.getByRole('textbox', { name: 'Every (minutes)' }).fill('45');
  await drift.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await callApi<{ intervalMinutes: number }>(target(), 'GET', '/drift/settings')).body.intervalMinutes).toBe(45);
  const history = page.getByRole('region', { name: 'Sync history retention' });
  await history.getByRole('textbox', { name: 'Keep runs for (days)' }).fill('0');
  await history.getByRole('button', { name: 'Save' }).click();
  await expect(history.getByRole('alert')).toContainText('retentionDays');
  await history.getByRole('textbox', { name: 'Keep runs for (days)' }).fill('21');
  await history.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await callApi<{ retentionDays: number }>(target(), 'GET', '/sync-history/settings')).body.retentionDays).toBe(21);
  const snapshots = page.getByRole('region', { name: 'Snapshots' });
  await snapshots.getByRole('textbox', { name: 'Snapshots kept per database' }).fill('12');
  await snapshots.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await callApi<{ maxPerDatabase: number }>(target(), 'GET', '/snapshots/settings')).body.maxPerDatabase).toBe(12);
  const guide = page.getByRole('region', { name: 'Reference guide refresh' });
  await guide.getByRole('switch', { name: 'Refresh the reference guides on a schedule' }).click();
  await guide.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await callApi<{ enabled: boolean }>(target(), 'GET', '/ref-guide/settings')).body.enabled).toBe(false);

  await expectAccessible(page);
  await picture(page, 'settings');

  // The API key: shown on request, then regenerated; the old key stops working at once.
  const keySection = page.getByRole('region', { name: 'API key' });
  await keySection.getByRole('button', { name: 'Show the API key' }).click();
  await expect(keySection.getByRole('textbox', { name: 'Current API key' })).toHaveValue(arrgo.apiKey);
  await keySection.getByRole('button', { name: 'Regenerate the API key' }).click();
  await page.getByRole('dialog', { name: 'Regenerate the API key?' }).getByRole('button', { name: 'Regenerate the API key' }).click();
  await expect(keySection).toContainText('A new key is in force');
  const fresh = await keySection.getByRole('textbox', { name: 'Current API key' }).inputValue();
  expect(fresh).not.toBe(arrgo.apiKey);
  expect((await callApi(target(), 'GET', '/instances')).status).toBe(401);
  expect((await callApi({ url: arrgo.url, apiKey: fresh }, 'GET', '/instances')).status).toBe(200);
  arrgo.apiKey = fresh;
  await expectFitsPhone(page);
});
