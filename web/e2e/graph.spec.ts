import { test, type Page } from '@playwright/test';
import type { components } from '../../src/client';
import { callApi, expect, expectAccessible, screenshot, services } from './fixtures';
import { addEmulatedRadarr, ensureAdmin, linkSampleDatabase, MOVIES_SYNC, signInToDashboard, type FleetRadarr } from './fleet';
import { startEmulatedApp, type EmulatedApp } from './services';

// The graph, compare and parity pages against the real service: the sample database's graph opens
// a profile's formats and one of them as an entity page; a profile compared on two emulated
// Radarrs and a Sonarr; the parity map with the sample's profiles.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

type Graph = components['schemas']['PcdGraph'];
type Compare = components['schemas']['EntityCompare'];

const PROFILE = MOVIES_SYNC.qualityProfiles[0];
/** The sample profile that fits both Radarr and Sonarr. */
const SHARED_PROFILE = 'Series 1080p';
let databaseId: number;
const radarrs: FleetRadarr[] = [];
let sonarr: EmulatedApp | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureAdmin();
  databaseId = await linkSampleDatabase('graph-sample');
});

test.afterAll(async () => {
  for (const radarr of radarrs) await radarr.app.stop();
  await sonarr?.stop();
});

async function openPage(page: Page, label: string, search: string) {
  await signInToDashboard(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
  await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
  await page.goto(`/${label.toLowerCase()}${search}`);
  await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
}

test("the graph opens a profile's formats, and a format as its entity page", async ({ page }) => {
  const graph = (await callApi<Graph>(services.arrgo(), 'GET', `/pcd/${databaseId}/graph`)).body;
  const formats = graph.edges.filter((e) => e.from.kind === 'quality_profile' && e.from.name === PROFILE && e.edgeKind === 'quality_profile_custom_format');
  expect(formats.length).toBeGreaterThan(0);
  const [format] = formats;

  await openPage(page, 'Graph', `?database=${databaseId}`);
  const drawing = page.getByRole('application', { name: 'Dependency graph' });
  await expect(drawing.getByRole('group', { name: `${PROFILE} (quality profile)` })).toBeVisible();
  await expect(page.getByRole('note')).toHaveText(new RegExp(`^${graph.nodes.length} nodes, ${graph.edges.length} edges`));
  await expectAccessible(page);
  await screenshot(page, 'graph');

  // Focus on the profile: its formats, with their scores, in the drawing and in the links table.
  await drawing.getByRole('button', { name: `Focus on quality profile ${PROFILE}` }).click();
  await expect(page).toHaveURL(new RegExp(`focus=quality_profile%3A${encodeURIComponent(PROFILE).replaceAll('%20', '(\\+|%20)')}`));
  const links = page.getByRole('table', { name: `Links of ${PROFILE}` });
  for (const edge of formats) {
    const row = links.getByRole('row').filter({ has: page.getByRole('link', { name: edge.to.name, exact: true }) });
    await expect(row).toContainText('uses');
    await expect(row).toContainText(String(edge.score));
    await expect(drawing.getByRole('group', { name: `${edge.to.name} (custom format)` })).toBeVisible();
  }
  // Nothing outside the profile's neighbourhood is drawn.
  const other = graph.nodes.find((n) => n.kind === 'quality_profile' && n.name !== PROFILE)!;
  await expect(drawing.getByRole('group', { name: `${other.name} (quality profile)` })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, 'graph-focus');

  // Enter on a focused node opens its entity (the entity page's heading is the entity's name, or its stub's).
  const node = drawing.getByRole('group', { name: `${format.to.name} (custom format)` });
  await node.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/configuration/${databaseId}/custom_format/${encodeURIComponent(format.to.name)}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(`^(${format.to.name}|Entity)$`));

  // Back on the focused graph, a click on the format's row link opens it too.
  await page.goBack();
  await links.getByRole('link', { name: format.to.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/configuration/${databaseId}/custom_format/${encodeURIComponent(format.to.name)}$`));
});

test('the graph filters by app family and node kind through the API, and clicking a node opens it', async ({ page }) => {
  const music = (await callApi<Graph>(services.arrgo(), 'GET', `/pcd/${databaseId}/graph?arrType=music_app&nodeKind=quality_profile`)).body;
  await openPage(page, 'Graph', `?database=${databaseId}&arrType=music_app&nodeKind=quality_profile`);
  await expect(page.getByRole('note')).toHaveText(new RegExp(`^${music.nodes.length} nodes, ${music.edges.length} edges`));
  const drawing = page.getByRole('application', { name: 'Dependency graph' });
  await expect(drawing.getByRole('group', { name: /\(quality profile\)$/ })).toHaveCount(music.nodes.filter((n) => n.kind === 'quality_profile').length);
  await expect(drawing.getByRole('group', { name: `${PROFILE} (quality profile)` })).toHaveCount(0);
  const profile = music.nodes.find((n) => n.kind === 'quality_profile')!;
  await drawing.getByRole('group', { name: `${profile.name} (quality profile)` }).click();
  await expect(page).toHaveURL(new RegExp(`/configuration/${databaseId}/quality_profile/${encodeURIComponent(profile.name)}$`));
});

test('compare: a profile on two emulated Radarrs and a Sonarr, side by side, with the diffs against the baseline, inline reasons and the live payloads', async ({ page }) => {
  test.setTimeout(120_000);
  radarrs.push(await addEmulatedRadarr('compare-radarr-a', databaseId), await addEmulatedRadarr('compare-radarr-b', databaseId));
  const [a, b] = radarrs;
  // The second Radarr writes its profiles under a namespace: its payload names the profile differently.
  expect((await callApi(services.arrgo(), 'PUT', `/instances/${b.id}/sync-config`, { databaseId, ...MOVIES_SYNC, namespace: 'b' })).status).toBe(200);
  const synced = await callApi<{ status: string }>(services.arrgo(), 'POST', `/instances/${a.id}/sync?wait=true`, {});
  expect(synced.body.status).toBe('applied');
  const sonarrApp = await startEmulatedApp('sonarr');
  sonarr = sonarrApp;
  const created = await callApi<{ id: number }>(services.arrgo(), 'POST', '/instances', { name: 'compare-sonarr', arrType: 'series_app', baseUrl: sonarrApp.url, apiKey: sonarrApp.apiKey });
  expect(created.status).toBe(201);
  expect((await callApi(services.arrgo(), 'PUT', `/instances/${created.body.id}/sync-config`, { databaseId, qualityProfiles: [SHARED_PROFILE] })).status).toBe(200);
  const ids = [a.id, b.id, created.body.id];
  // What the API says differs on the Sonarr (its own qualities): the page must show exactly that.
  const expected = (await callApi<Compare>(services.arrgo(), 'GET', `/pcd/${databaseId}/resolved/qualityProfile/${encodeURIComponent(SHARED_PROFILE)}/compare?instanceIds=${ids.join(',')}`)).body;
  expect(expected.baselineInstanceId).toBe(a.id);
  const sonarrFields = expected.diffs.find((d) => d.instanceId === created.body.id)!.changes[0].fields;
  expect(sonarrFields.length).toBeGreaterThan(0);

  await openPage(page, 'Compare', `?database=${databaseId}`);
  await expectAccessible(page);
  const form = page.getByRole('form', { name: 'What to compare' });
  await form.getByLabel('Name').fill(SHARED_PROFILE);
  await page.keyboard.press('Escape');
  const instances = form.getByRole('combobox', { name: /^Instances/ });
  for (const name of [a.name, b.name, 'compare-sonarr']) {
    await instances.click();
    await page.getByRole('option', { name: new RegExp(`^${name} `) }).click();
  }
  await page.keyboard.press('Escape');
  await form.getByRole('checkbox', { name: /Include the live payloads/ }).check();
  await form.getByRole('button', { name: 'Compare' }).click();

  await expect(page).toHaveURL(new RegExp(`instances=${ids.join('%2C')}`));
  const first = page.getByRole('region', { name: a.name, exact: true });
  const second = page.getByRole('region', { name: b.name, exact: true });
  const third = page.getByRole('region', { name: 'compare-sonarr', exact: true });
  await expect(first).toContainText('baseline');
  await expect(first).toContainText('The others are compared with this one.');
  await expect(second).toContainText('Same as the baseline.');
  await second.getByText('Payload the sync would write').click();
  await expect(second.getByText(`"name": "${SHARED_PROFILE} [b]"`)).toBeVisible();
  const diff = third.getByRole('table', { name: 'compare-sonarr against the baseline: field changes' });
  await expect(diff.getByRole('row')).toHaveCount(sonarrFields.length + 1);
  await expect(diff.getByRole('row').nth(1).getByRole('rowheader')).toContainText(sonarrFields[0].field);
  // Live payloads: no app has this profile yet (the first Radarr was synced with another one).
  await expect(first).toContainText('No live payload (the app does not have it).');
  await expectAccessible(page);
  await screenshot(page, 'compare');

  // Asked again at once, the live payloads are rate-limited per instance: the reason is inline, in words.
  await form.getByRole('button', { name: 'Compare' }).click();
  await expect(first.getByText('Reason: rate-limited')).toBeVisible();
  await expect(first).toContainText('the live payload was fetched moments ago');

  // A profile the Sonarr cannot hold: incompatible, inline.
  await form.getByLabel('Name').fill(PROFILE);
  await page.keyboard.press('Escape');
  await form.getByRole('checkbox', { name: /Include the live payloads/ }).uncheck();
  await form.getByRole('button', { name: 'Compare' }).click();
  await expect(third.getByText('Reason: incompatible')).toBeVisible();
  await expect(third).toContainText("the app can't hold this entity");
});

test('parity: entities per app, the differences, and which of the database’s profiles fit which app', async ({ page }) => {
  const parity = (await callApi<components['schemas']['ParityMap']>(services.arrgo(), 'GET', `/compatibility/parity?databaseId=${databaseId}`)).body;
  await openPage(page, 'Parity', `?database=${databaseId}`);
  const matrix = page.getByRole('table', { name: 'Entities per app' });
  const metadata = matrix.getByRole('row', { name: /^Metadata profiles/ });
  await expect(metadata.getByRole('cell')).toHaveText(['Not in this app', 'Not in this app', 'Own per app']);
  await expect(page.getByRole('heading', { name: `Where the apps differ (${parity.semanticDifferences.length})` })).toBeVisible();
  const profiles = page.getByRole('table', { name: 'Quality profiles per app' });
  for (const profile of parity.profiles!) {
    const row = profiles.getByRole('row').filter({ has: page.getByRole('link', { name: profile.name, exact: true }) });
    await expect(row.getByRole('cell')).toHaveText((['movie_app', 'series_app', 'music_app'] as const).map((app) => (profile.compatibleArrTypes.includes(app) ? 'fits' : '–')));
  }
  await expectAccessible(page);
  await screenshot(page, 'parity');

  // Only the differences that concern Lidarr.
  await page.getByRole('combobox', { name: 'App', exact: true }).click();
  await page.getByRole('option', { name: 'Lidarr (music_app)' }).click();
  const lidarr = parity.semanticDifferences.filter((d) => d.apps.includes('music_app')).length;
  await expect(page.getByRole('heading', { name: `Where the apps differ (${lidarr})` })).toBeVisible();
  await expect(page).toHaveURL(/arrType=music_app/);
});
