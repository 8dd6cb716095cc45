import { test, type Page } from '@playwright/test';
import type { components } from '../../src/client';
import { callApi, expect, expectAccessible, screenshot, services } from './fixtures';
import { addEmulatedRadarr, ensureAdmin, linkSampleDatabase, signInToDashboard, type FleetRadarr } from './fleet';

// The profile editors of the configuration workbench, on the sample database: each saves a change
// as value-guarded user-layer ops and the resolved state has it. The journey of a score change
// goes on to an emulated Radarr: the lineage says user, a sync preview shows exactly that field,
// the apply brings the Radarr back in sync.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

type Resolved = components['schemas']['ResolvedList'];
type Preview = components['schemas']['SyncPreview'];

const arrgo = () => services.arrgo();
let databaseId: number;
let radarr: FleetRadarr;

/** The resolved payload of one entity, as the API has it now. */
async function resolved<T = Record<string, unknown>>(entityType: string, name: string, query = ''): Promise<{ entity: T; lineage?: components['schemas']['LineageEntry'][] }> {
  const { status, body } = await callApi<Resolved>(arrgo(), 'GET', `/pcd/${databaseId}/resolved/${entityType}${query}`);
  expect(status).toBe(200);
  const found = body.entities.find((e) => e.name === name);
  expect(found, `${entityType} "${name}" in database ${databaseId}`).toBeDefined();
  return { entity: found!.entity as T, lineage: found!.lineage };
}

/** Opens an entity's page and waits for its editor. */
async function openEditor(page: Page, portableType: string, name: string) {
  await page.goto(`/configuration/${databaseId}/${portableType}/${encodeURIComponent(name)}`);
  await expect(page.getByRole('button', { name: `Save ${name}`, exact: true })).toBeVisible({ timeout: 30_000 });
}

async function save(page: Page, name: string) {
  await page.getByRole('button', { name: `Save ${name}`, exact: true }).click();
  await expect(page.getByText('No unsaved changes')).toBeVisible();
}

/** Turns a section's advanced detail on (the mode is stored per user, so it may be on already). */
async function advanced(page: Page, section: string) {
  const toggle = page.getByRole('region', { name: section }).getByRole('switch', { name: 'Advanced' });
  await expect(toggle).toBeEnabled();
  if (!(await toggle.isChecked())) await toggle.click();
  await expect(toggle).toBeChecked();
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureAdmin();
  databaseId = await linkSampleDatabase('editors-sample');
  radarr = await addEmulatedRadarr('editors-radarr', databaseId);
  const synced = await callApi<{ status: string }>(arrgo(), 'POST', `/instances/${radarr.id}/sync?wait=true`, {});
  expect(synced.body.status).toBe('applied');
  expect((await callApi<{ status: string }>(arrgo(), 'POST', `/drift/${radarr.id}/check`)).body.status).toBe('in-sync');
});

test.afterAll(async () => {
  await radarr?.app.stop();
});

test.beforeEach(async ({ page }) => {
  await signInToDashboard(page);
});

test('a custom-format score changed in the console: the lineage says user, a sync preview shows exactly that field, apply, in sync', async ({ page }) => {
  const profile = 'Movies 1080p';
  const before = await resolved<{ customFormats: Record<string, { name: string; score: number }[]> }>('qualityProfile', profile);
  expect(before.entity.customFormats.movie_app.find((s) => s.name === 'Preferred Groups')?.score).toBe(400);

  await openEditor(page, 'quality_profile', profile);
  const scores = page.getByRole('region', { name: 'Custom format scores' });
  await scores.getByText('Radarr (4)').click();
  const table = scores.getByRole('table', { name: `Custom format scores of ${profile} (Radarr)` });
  await expect(table.getByRole('row')).toHaveCount(5);
  await scores.getByRole('textbox', { name: 'Search formats' }).fill('preferred');
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('textbox', { name: 'Score of Preferred Groups' }).fill('450');
  await expect(page.getByText('Unsaved changes', { exact: true })).toBeVisible();
  await save(page, profile);

  // The resolved state has it, set by the user layer (an op on that one field).
  const after = await resolved<{ customFormats: Record<string, { name: string; score: number }[]> }>('qualityProfile', profile, '?includeLineage=true');
  expect(after.entity.customFormats.movie_app).toEqual(before.entity.customFormats.movie_app.map((s) => (s.name === 'Preferred Groups' ? { ...s, score: 450 } : s)));
  expect(after.entity.customFormats.all).toEqual(before.entity.customFormats.all);
  expect(after.lineage?.find((l) => l.path === 'customFormats.movie_app.Preferred Groups.score')).toMatchObject({ sourceLayer: 'user', sourceKind: 'operation' });
  const userOps = (await callApi<components['schemas']['UserOp'][]>(arrgo(), 'GET', `/pcd/${databaseId}/user-ops`)).body.filter((o) => o.target.name === profile);
  expect(userOps.map((o) => o.outcome.status)).toEqual(['applied']);

  // The page shows the field's lineage: the user layer, that op.
  await expectLineage(page, 'customFormats.movie_app.Preferred Groups.score', 'user', userOps[0].id);
  await expectLineage(page, 'customFormats.movie_app.Cam.score', 'base', after.lineage!.find((l) => l.path === 'customFormats.movie_app.Cam.score')!.opId!);
  await expectAccessible(page);

  // A sync preview for the Radarr: one update, the profile, with exactly that field.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sync', exact: true }).click();
  await page.getByRole('combobox', { name: 'Instances' }).click();
  await page.getByRole('option', { name: `${radarr.name} (Radarr)`, exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible({ timeout: 30_000 });
  const previewId = Number(new URL(page.url()).pathname.split('/').pop());
  const preview = (await callApi<Preview>(arrgo(), 'GET', `/sync/previews/${previewId}`)).body;
  expect(preview.counts).toMatchObject({ create: 0, update: 1, delete: 0 });
  const changed = preview.qualityProfiles!.qualityProfiles.filter((c) => c.action !== 'unchanged');
  expect(changed.map((c) => ({ name: c.name, action: c.action, fields: c.fields }))).toEqual([
    { name: profile, action: 'update', fields: [{ field: 'formatItems.Preferred Groups', type: 'changed', current: 400, desired: 450 }] },
  ]);
  const article = page.getByRole('region', { name: 'Quality profiles' }).getByRole('article', { name: `${profile} (quality profile)`, exact: true });
  await expect(article).toContainText('update');
  const rows = article.getByRole('table', { name: `${profile} (quality profile): current and desired values` }).getByRole('row');
  await expect(rows.filter({ hasText: 'formatItems' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'formatItems' }).getByRole('cell')).toHaveText(['formatItems.Preferred Groups', '400', '450']);

  // Apply: the Radarr has the score, and is in sync.
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('dialog', { name: `Apply to ${radarr.name}?` }).getByRole('button', { name: 'Apply 1 change', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Apply outcome' })).toContainText('success', { timeout: 60_000 });
  const drift = await callApi<{ status: string }>(arrgo(), 'POST', `/drift/${radarr.id}/check`);
  expect(drift.body.status).toBe('in-sync');
  const state = (await (await fetch(`${radarr.app.url}/__emulator/state`, { headers: { 'X-Api-Key': radarr.app.apiKey } })).json()) as {
    customFormats: { id: number; name: string }[];
    qualityProfiles: { name: string; formatItems: { format: number; score: number }[] }[];
  };
  const formatId = state.customFormats.find((f) => f.name === 'Preferred Groups')!.id;
  expect(state.qualityProfiles.find((p) => p.name === profile)!.formatItems.find((i) => i.format === formatId)!.score).toBe(450);
});

/** The entity page's resolved fields: the field's lineage names the user layer and the op. */
async function expectLineage(page: Page, path: string, layer: string, opId: number) {
  const layers = page.getByRole('region', { name: 'Layers' });
  await layers.getByRole('textbox', { name: 'Filter fields' }).fill(path);
  const row = layers.getByRole('table', { name: 'Fields (resolved)' }).getByRole('row').filter({ hasText: path });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('lineage-layer')).toHaveText(layer);
  await expect(row).toContainText(`op ${opId}`);
}

test('quality profile: reorder the ladder by keyboard drag and by the move buttons, pick upgrade-until; bulk set, scale and copy scores', async ({ page }) => {
  const profile = 'Movies 1080p';
  await openEditor(page, 'quality_profile', profile);
  const ladder = page.getByRole('list', { name: `Qualities of ${profile}, most preferred first` });
  const order = () => ladder.getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));
  expect(await order()).toEqual(['Remux-1080p', 'Bluray-1080p', 'WEB 1080p', 'Bluray-720p', 'DVD-R', 'CAM']);

  // Keyboard drag: Space picks the handle up, ArrowUp moves it, Space drops; each step is announced.
  const announced = page.getByRole('status').filter({ hasText: 'Bluray-720p' });
  await ladder.getByRole('button', { name: 'Drag Bluray-720p' }).focus();
  await page.keyboard.press('Space');
  await expect(announced).toHaveText('Picked up Bluray-720p, position 4 of 6.');
  await page.keyboard.press('ArrowUp');
  await expect(announced).toHaveText('Bluray-720p is over position 3 of 6.');
  await page.keyboard.press('Space');
  await expect(announced).toHaveText('Bluray-720p dropped at position 3 of 6.');
  await expect.poll(order).toEqual(['Remux-1080p', 'Bluray-1080p', 'Bluray-720p', 'WEB 1080p', 'DVD-R', 'CAM']);
  // The buttons: DVD-R up one.
  await ladder.getByRole('button', { name: 'Move DVD-R up' }).click();
  await expect.poll(order).toEqual(['Remux-1080p', 'Bluray-1080p', 'Bluray-720p', 'DVD-R', 'WEB 1080p', 'CAM']);
  // Upgrade until the WEB group; Remux allowed.
  await ladder.getByRole('radio', { name: 'Upgrade until WEB 1080p' }).check();
  await ladder.getByRole('checkbox', { name: 'Allow Remux-1080p' }).check();
  await expectAccessible(page);

  // Scores: all Radarr formats but Cam scaled by 2; Cam set to -20000; the 'all' scope copies Series 1080p's.
  const scores = page.getByRole('region', { name: 'Custom format scores' });
  await scores.getByText('Radarr (4)').click();
  const table = scores.getByRole('table', { name: `Custom format scores of ${profile} (Radarr)` });
  await table.getByRole('checkbox', { name: 'Select every format shown' }).check();
  await table.getByRole('checkbox', { name: 'Select Cam' }).uncheck();
  await expect(scores.getByText('3 selected')).toBeVisible();
  await scores.getByRole('textbox', { name: 'Factor' }).fill('2');
  await scores.getByRole('button', { name: 'Scale scores' }).click();
  await expect(table.getByRole('textbox', { name: 'Score of Preferred Groups' })).toHaveValue('900');
  // Partly selected, the header box selects every row shown; again, none.
  await table.getByRole('checkbox', { name: 'Select every format shown' }).check();
  await table.getByRole('checkbox', { name: 'Select every format shown' }).uncheck();
  await expect(scores.getByText('Select rows for the bulk actions.')).toBeVisible();
  await table.getByRole('checkbox', { name: 'Select Cam' }).check();
  await scores.getByRole('textbox', { name: 'Score for the selected' }).fill('-20000');
  await scores.getByRole('button', { name: 'Set score' }).click();
  await scores.getByText('All apps (1)').click();
  await scores.getByRole('combobox', { name: 'Copy from profile' }).click();
  await page.getByRole('option', { name: 'Series 1080p', exact: true }).click();
  await scores.getByRole('button', { name: 'Copy scores' }).click();
  await expect(scores.getByText('All apps (3)')).toBeVisible();
  await advanced(page, 'Custom format scores');
  await scores.getByRole('textbox', { name: 'Upgrade score increment' }).fill('5');
  await scores.getByRole('textbox', { name: 'Minimum score' }).fill('10');
  await screenshot(page, 'editor-quality-profile');
  await save(page, profile);

  const after = await resolved<{
    qualities: { name: string; enabled: boolean; upgradeUntil: boolean }[];
    customFormats: Record<string, { name: string; score: number }[]>;
    minimumCustomFormatScore: number;
    upgradeScoreIncrement: number;
  }>('qualityProfile', profile);
  expect(after.entity.qualities.map((q) => [q.name, q.enabled, q.upgradeUntil])).toEqual([
    ['Remux-1080p', true, false],
    ['Bluray-1080p', true, false],
    ['Bluray-720p', true, false],
    ['DVD-R', true, false],
    ['WEB 1080p', true, true],
    ['CAM', false, false],
  ]);
  expect(after.entity.customFormats.movie_app).toEqual([
    { name: 'Cam', score: -20000 },
    { name: "Director's Cut", score: 50 },
    { name: 'Preferred Groups', score: 900 },
    { name: 'x265 (HD)', score: -1000 },
  ]);
  expect(after.entity.customFormats.all).toEqual([
    { name: 'Atmos', score: 100 },
    { name: 'HDR', score: 50 },
    { name: 'Not English', score: -1000 },
  ]);
  expect(after.entity).toMatchObject({ minimumCustomFormatScore: 10, upgradeScoreIncrement: 5 });
  // After a reload the editor shows the saved ladder.
  await page.reload();
  await expect.poll(order).toEqual(['Remux-1080p', 'Bluray-1080p', 'Bluray-720p', 'DVD-R', 'WEB 1080p', 'CAM']);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
});

test('media settings: propers and repacks, and media info (advanced), saved to the resolved state', async ({ page }) => {
  await openEditor(page, 'movie_app_media_settings', 'Standard');
  await page.getByRole('combobox', { name: 'Propers and repacks' }).click();
  await page.getByRole('option', { name: 'Prefer and upgrade' }).click();
  await advanced(page, 'File management');
  await page.getByRole('switch', { name: 'Analyse video files (media info)' }).click();
  await expectAccessible(page);
  await screenshot(page, 'editor-media-settings');
  await save(page, 'Standard');
  const after = await resolved('mediaSettings', 'Standard', '?arrType=movie_app');
  expect(after.entity).toEqual({ name: 'Standard', propersRepacks: 'preferAndUpgrade', enableMediaInfo: false });
});

test('quality definitions: minimum, preferred and maximum size per quality, saved to the resolved state', async ({ page }) => {
  await openEditor(page, 'movie_app_quality_definitions', 'Movie Sizes');
  const table = page.getByRole('table', { name: 'Sizes per quality of Movie Sizes' });
  await table.getByRole('textbox', { name: 'Minimum size of Bluray-1080p' }).fill('60');
  await table.getByRole('textbox', { name: 'Preferred size of Bluray-1080p' }).fill('320');
  await table.getByRole('textbox', { name: 'Maximum size of WEBDL-1080p' }).fill('380');
  await advanced(page, 'Sizes');
  await expect(table.getByRole('row', { name: /^Bluray-1080p/ })).toContainText('3.5 / 26.4');
  await expectAccessible(page);
  await screenshot(page, 'editor-quality-definitions');
  await save(page, 'Movie Sizes');
  const after = await resolved<{ entries: { quality: string; minSize: number; preferredSize: number; maxSize: number }[] }>('qualityDefinitions', 'Movie Sizes', '?arrType=movie_app');
  expect(after.entity.entries.find((e) => e.quality === 'Bluray-1080p')).toEqual({ quality: 'Bluray-1080p', minSize: 60, maxSize: 450, preferredSize: 320 });
  expect(after.entity.entries.find((e) => e.quality === 'WEBDL-1080p')).toEqual({ quality: 'WEBDL-1080p', minSize: 15, maxSize: 380, preferredSize: 250 });
});

test('delay profile: only torrent drops the Usenet delay; a score bypass (advanced) with its minimum; saved to the resolved state', async ({ page }) => {
  await openEditor(page, 'delay_profile', 'Standard');
  await page.getByRole('combobox', { name: 'Preferred protocol' }).click();
  await page.getByRole('option', { name: 'Only torrent' }).click();
  await expect(page.getByRole('textbox', { name: 'Usenet delay (minutes)' })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Torrent delay (minutes)' }).fill('90');
  await advanced(page, 'Delays');
  await page.getByRole('switch', { name: 'Bypass if above custom format score' }).click();
  await page.getByRole('textbox', { name: 'Minimum custom format score' }).fill('250');
  await expectAccessible(page);
  await screenshot(page, 'editor-delay-profile');
  await save(page, 'Standard');
  const after = await resolved('delayProfile', 'Standard');
  expect(after.entity).toEqual({
    name: 'Standard',
    preferredProtocol: 'only_torrent',
    usenetDelay: null,
    torrentDelay: 90,
    bypassIfHighestQuality: true,
    bypassIfAboveCustomFormatScore: true,
    minimumCustomFormatScore: 250,
  });
});

test('Lidarr metadata profile: album types and (advanced) release statuses, saved to the resolved state', async ({ page }) => {
  await openEditor(page, 'music_app_metadata_profile', 'Everything');
  await page.getByRole('checkbox', { name: 'Single', exact: true }).uncheck();
  await advanced(page, 'Albums');
  await page.getByRole('checkbox', { name: 'Bootleg', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Live', exact: true }).uncheck();
  await expectAccessible(page);
  await screenshot(page, 'editor-metadata-profile');
  await save(page, 'Everything');
  const after = await resolved<Record<'primaryAlbumTypes' | 'secondaryAlbumTypes' | 'releaseStatuses', { name: string; allowed: boolean }[]>>('musicAppMetadataProfile', 'Everything');
  const allowed = (list: { name: string; allowed: boolean }[]) => list.filter((t) => t.allowed).map((t) => t.name);
  expect(allowed(after.entity.primaryAlbumTypes)).toEqual(['Album', 'EP', 'Broadcast', 'Other']);
  expect(allowed(after.entity.releaseStatuses)).toEqual(['Official', 'Promotion', 'Bootleg']);
  expect(allowed(after.entity.secondaryAlbumTypes)).not.toContain('Live');
  expect(after.entity.secondaryAlbumTypes).toHaveLength(12);
});

test('unsaved changes: leaving asks first; stay keeps the edit, discard drops it, leave goes without saving', async ({ page }) => {
  const name = 'Movie Sizes';
  const before = await resolved<{ entries: { quality: string; minSize: number }[] }>('qualityDefinitions', name, '?arrType=movie_app');
  await openEditor(page, 'movie_app_quality_definitions', name);
  const minimum = page.getByRole('textbox', { name: 'Minimum size of Remux-1080p' });
  await minimum.fill('123');
  await expect(page.getByText('Unsaved changes', { exact: true })).toBeVisible();

  // Navigating away asks; staying keeps the edit.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
  const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(ask).toContainText(`the unsaved changes to ${name}`);
  await ask.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(minimum).toHaveValue('123');
  // Discard returns to the resolved value; nothing asks any more.
  await page.getByRole('button', { name: `Discard changes to ${name}` }).click();
  await expect(minimum).toHaveValue('100');
  await minimum.fill('124');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
  await ask.getByRole('button', { name: 'Leave and discard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const after = await resolved<{ entries: { quality: string; minSize: number }[] }>('qualityDefinitions', name, '?arrType=movie_app');
  expect(after.entity.entries).toEqual(before.entity.entries);
});
