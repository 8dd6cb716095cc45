import { test, type Page } from '@playwright/test';
import type { components } from '../../src/client';
import { apiUntil, callApi, expect, expectAccessible, screenshot, services } from './fixtures';
import { addEmulatedRadarr, ensureAdmin, linkSampleDatabase, signInToDashboard, type FleetRadarr } from './fleet';

// Canary rollouts through the console over three emulated Radarr instances: started from the form,
// decided at the gate (from a phone), watched to the end without a reload; aborted; a stale state
// token refused and recovered; an unreachable target's evidence.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

type Rollout = components['schemas']['CanaryRollout'];
type Evidence = components['schemas']['CanaryEvidenceAvailable'];
type SyncChange = components['schemas']['SyncChange'];

const SECTIONS = ['qualityProfiles', 'delayProfiles', 'mediaManagement'];
let fleet: FleetRadarr[] = [];
let databaseId: number;

const rollout = (id: number) => callApi<Rollout>(services.arrgo(), 'GET', `/canary/rollouts/${id}`).then((r) => r.body);
const rolloutUntil = (id: number, done: (r: Rollout) => boolean) => apiUntil<Rollout>(services.arrgo(), `/canary/rollouts/${id}`, done, 90_000);

async function startByApi(canary: FleetRadarr, targets: FleetRadarr[]): Promise<number> {
  const started = await callApi<Rollout>(services.arrgo(), 'POST', '/canary/rollouts', {
    arrType: 'movie_app',
    canaryInstanceId: canary.id,
    targetInstanceIds: targets.map((t) => t.id),
    sections: SECTIONS,
    partialPolicy: 'gate',
  });
  expect(started.status).toBe(201);
  return started.body.id;
}

/** Every emulated app back to a fresh install: each has changes to receive again. */
async function freshFleet() {
  for (const radarr of fleet) await radarr.control.reset();
}

/** Counts main-frame navigations from now on: the page must update itself, never reload. */
function watchNavigations(page: Page) {
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });
  return {
    async expectNone() {
      expect(navigations).toBe(0);
      // A value set in the page before is still there: the same document, not a reload.
      expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('set before');
    },
    async mark() {
      await page.evaluate(() => ((window as unknown as { marker?: string }).marker = 'set before'));
    },
  };
}

/** Picks the canary and the targets in the start form. */
async function pickInstances(page: Page, canary: FleetRadarr, targets: FleetRadarr[]) {
  await page.getByRole('combobox', { name: 'Canary instance' }).click();
  await page.getByRole('option', { name: canary.name, exact: true }).click();
  await page.getByRole('combobox', { name: 'Targets' }).click();
  for (const target of targets) await page.getByRole('option', { name: target.name, exact: true }).click();
  await page.keyboard.press('Escape');
}

const text = (value: unknown) => (value === null || value === undefined ? '–' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** The first change in a preview with field-level values (an update), and its preview's section. */
function firstFieldChange(preview: Evidence['previews'][number]): SyncChange {
  const changes = [
    ...(preview.qualityProfiles?.qualityProfiles ?? []),
    preview.delayProfiles?.profile,
    preview.mediaManagement?.naming,
    preview.mediaManagement?.mediaSettings,
    ...(preview.mediaManagement?.qualityDefinitions ?? []),
  ].filter((c): c is SyncChange => !!c && c.fields.length > 0);
  expect(changes.length).toBeGreaterThan(0);
  return changes[0];
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureAdmin();
  databaseId = await linkSampleDatabase('rollouts-sample');
  for (const name of ['rollout-a', 'rollout-b', 'rollout-c']) fleet.push(await addEmulatedRadarr(name, databaseId));
});

test.afterAll(async () => {
  for (const radarr of fleet) await radarr.app.stop();
  fleet = [];
});

test.beforeEach(async ({ page }) => {
  test.setTimeout(180_000);
  await signInToDashboard(page);
});

test('start a canary rollout from the form, proceed at the gate from a phone, and watch it complete without a reload', async ({ page }) => {
  const [a, b, c] = fleet;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rollouts' }).click();
  await expect(page.getByRole('heading', { name: 'Rollouts', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Start a rollout' }).click();
  await expect(page.getByRole('heading', { name: 'Start a rollout', level: 1 })).toBeVisible();

  await pickInstances(page, a, [b, c]);
  await expect(page.getByRole('checkbox', { name: 'Metadata profile' })).toHaveCount(0); // a Lidarr section
  await page.getByRole('textbox', { name: 'Batch size' }).fill('1');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Start the rollout' }).click();

  await expect(page).toHaveURL(/\/rollouts\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  const navigations = watchNavigations(page);
  await navigations.mark();
  await expect(page.getByRole('heading', { name: `Rollout ${id}`, level: 1 })).toBeVisible();
  const started = await rollout(id);
  expect(started).toMatchObject({ canary: { instanceId: a.id }, targets: [{ instanceId: b.id }, { instanceId: c.id }], batchSize: 1, sections: SECTIONS, partialPolicy: 'gate' });

  // The gate shows by itself within 2 s of the transition.
  const gated = await rolloutUntil(id, (r) => r.status !== 'canary_running');
  expect(gated.status).toBe('awaiting_confirmation');
  await expect(page.getByRole('heading', { name: 'Waiting for your decision' })).toBeVisible({ timeout: 2_000 });
  await expect(page.locator('[aria-current="step"]')).toHaveText(/Gate/);
  const canaryDiagnostics = gated.canary.diagnostics as { summary: string };
  await expect(page.getByRole('region', { name: 'Canary' })).toContainText(`Sync result: ${canaryDiagnostics.summary}`);

  // Each target's evidence: the field-level diff the API holds, current and desired side by side.
  const evidence = gated.remainingPreview as Evidence;
  expect(evidence.availability).toBe('available');
  const preview = evidence.previews.find((p) => p.instanceId === b.id)!;
  const change = firstFieldChange(preview);
  const region = page.getByRole('region', { name: 'Evidence' });
  await region.getByRole('button', { name: new RegExp(`^${b.name}`) }).click();
  const fields = region.getByRole('table', { name: `${change.name}: field changes` }).first();
  const row = fields.getByRole('row', { name: new RegExp(`^${change.fields[0].field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
  await expect(row.getByRole('cell').nth(0)).toHaveText(text(change.fields[0].current));
  await expect(row.getByRole('cell').nth(1)).toHaveText(text(change.fields[0].desired));
  await expectAccessible(page);
  await screenshot(page, 'rollout');

  // Approving from a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('heading', { name: 'Waiting for your decision' }).scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await screenshot(page, 'rollout-gate-phone', { fullPage: false });
  await page.getByRole('button', { name: 'Proceed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Roll out to 2 targets?' });
  await expect(dialog).toContainText(`${b.name}:`);
  const proceeded = page.waitForResponse((r) => r.url().endsWith(`/canary/rollouts/${id}/proceed`));
  await dialog.getByRole('button', { name: 'Proceed' }).click();
  expect((await proceeded).status()).toBe(200);
  await page.setViewportSize({ width: 1280, height: 860 });

  // Batch by batch to the end, shown by the page itself.
  const done = await rolloutUntil(id, (r) => r.finishedAt !== null);
  expect(done.status).toBe('completed');
  await expect(page.locator('[aria-current="step"]')).toHaveText(/Completed$/, { timeout: 2_000 });
  await expect(page.getByRole('progressbar', { name: '2 of 2 targets synced' })).toBeVisible();
  for (const [index, target] of [b, c].entries()) {
    const batch = page.getByRole('region', { name: `Batch ${index + 1}` });
    await expect(batch.getByRole('listitem', { name: `${target.name}: synced` })).toBeVisible();
    await expect(batch).toContainText(done.rolloutResults[index].summary);
  }
  await expect(page.getByRole('heading', { name: 'Waiting for your decision' })).toHaveCount(0);
  await navigations.expectNone();
  for (const target of [b, c]) expect((await target.control.writes()).total).toBeGreaterThan(0);
});

test('the pre-check refusal offers the suggested canary in one click; that rollout is aborted at the gate', async ({ page }) => {
  const [a, b, c] = fleet;
  // Only b has something to change: a canary a would prove nothing.
  await b.control.reset();
  for (const radarr of fleet) await radarr.control.clearWrites();
  await page.goto('/rollouts/new');
  await pickInstances(page, a, [b, c]);
  const refusedAnswer = page.waitForResponse((r) => r.url().endsWith('/canary/rollouts') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Start the rollout' }).click();
  const refused = await refusedAnswer;
  expect(refused.status()).toBe(409);
  const body = (await refused.json()) as { error: string; suggestedCanaryInstanceId: number };
  expect(body.suggestedCanaryInstanceId).toBe(b.id);
  const alert = page.getByRole('alert').filter({ hasText: 'canary_in_sync' });
  await expect(alert).toContainText(body.error);
  await expect(alert.getByRole('list', { name: 'Targets with changes' })).toContainText(b.name);
  await expectAccessible(page);
  await screenshot(page, 'rollout-start');

  await alert.getByRole('button', { name: `Use ${b.name} as the canary` }).click();
  await expect(page).toHaveURL(/\/rollouts\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  const started = await rollout(id);
  expect(started.canary.instanceId).toBe(b.id);
  expect(started.targets.map((t) => t.instanceId)).toContain(a.id);
  expect(started.targets.map((t) => t.instanceId)).toContain(c.id);

  await expect(page.getByRole('heading', { name: 'Waiting for your decision' })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Abort' }).click();
  const dialog = page.getByRole('dialog', { name: 'Abort the rollout?' });
  await dialog.getByRole('button', { name: 'Abort' }).click();
  const aborted = await rolloutUntil(id, (r) => r.finishedAt !== null);
  expect(aborted).toMatchObject({ status: 'aborted', statusReasonCode: 'gate_declined' });
  await expect(page.getByRole('alert').filter({ hasText: aborted.statusReason! })).toBeVisible();
  await expect(page.locator('[aria-current="step"]')).toHaveText(/Gate: aborted$/);
  for (const target of started.targets) await expect(page.getByRole('listitem', { name: `${target.instanceName}: left untouched` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Waiting for your decision' })).toHaveCount(0);
  // The targets were never written to.
  for (const radarr of [a, c]) expect((await radarr.control.writes()).total).toBe(0);
});

test('a decision made on a state that changed meanwhile is refused; the page says what changed and a retry works', async ({ page }) => {
  const [a, b, c] = fleet;
  await freshFleet();
  const id = await startByApi(a, [b, c]);
  await page.goto(`/rollouts/${id}`);
  await expect(page.getByRole('heading', { name: 'Waiting for your decision' })).toBeVisible({ timeout: 60_000 });
  const seen = await rollout(id);

  // The user opens the decision; meanwhile someone else refreshes the evidence through the API.
  await page.getByRole('button', { name: 'Proceed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Roll out to 2 targets?' });
  await expect(dialog).toBeVisible();
  const refreshed = await callApi<Rollout>(services.arrgo(), 'POST', `/canary/rollouts/${id}/refresh-evidence`, { stateToken: seen.stateToken });
  expect(refreshed.status).toBe(200);
  expect(refreshed.body.stateToken).not.toBe(seen.stateToken);

  const stale = page.waitForResponse((r) => r.url().endsWith(`/canary/rollouts/${id}/proceed`));
  await dialog.getByRole('button', { name: 'Proceed' }).click();
  const refusal = await stale;
  expect(refusal.status()).toBe(409);
  expect(JSON.parse(refusal.request().postData()!)).toEqual({ stateToken: seen.stateToken });
  expect(((await refusal.json()) as { code: string }).code).toBe('stale_token');
  const changed = page.getByRole('alert').filter({ hasText: 'The rollout changed since you opened it' });
  const rebuiltAt = new Date((refreshed.body.remainingPreview as Evidence).generatedAt).toLocaleTimeString('en-GB', { timeZone: 'UTC' });
  await expect(changed).toContainText(`its evidence was rebuilt at ${rebuiltAt}`);
  await expect(changed).toContainText('review it and decide again');
  expect((await rollout(id)).status).toBe('awaiting_confirmation');
  await screenshot(page, 'rollout-changed', { fullPage: false });

  // The fresh state is on the page: deciding again carries its token and goes through.
  await page.getByRole('button', { name: 'Proceed' }).click();
  const retried = page.waitForResponse((r) => r.url().endsWith(`/canary/rollouts/${id}/proceed`));
  await page.getByRole('dialog', { name: 'Roll out to 2 targets?' }).getByRole('button', { name: 'Proceed' }).click();
  const retry = await retried;
  expect(retry.status()).toBe(200);
  expect(JSON.parse(retry.request().postData()!)).toEqual({ stateToken: refreshed.body.stateToken });
  await expect(changed).toHaveCount(0);
  const done = await rolloutUntil(id, (r) => r.finishedAt !== null);
  expect(done.status).toBe('completed');
  await expect(page.getByRole('progressbar', { name: '2 of 2 targets synced' })).toBeVisible({ timeout: 2_000 });
});

test("an unreachable target's evidence: its failure per section, proceeding refused, then refreshed once it answers", async ({ page }) => {
  const [a, b, c] = fleet;
  await freshFleet();
  // c drops every connection, as an app that is down would.
  await c.control.addFault({ kind: 'reset', path: /.*/ });
  try {
    const id = await startByApi(a, [b, c]);
    await page.goto(`/rollouts/${id}`);
    await expect(page.getByRole('heading', { name: 'Waiting for your decision' })).toBeVisible({ timeout: 60_000 });
    const gated = await rollout(id);
    const evidence = gated.remainingPreview as components['schemas']['CanaryEvidenceUnavailable'];
    expect(evidence.availability).toBe('unavailable');
    expect(evidence.failedPreviews.map((p) => p.instanceId)).toEqual([c.id]);

    const region = page.getByRole('region', { name: 'Evidence' });
    await expect(region.getByRole('alert').filter({ hasText: 'The evidence is unavailable' })).toContainText(evidence.failure!.message);
    await expect(page.getByText('The evidence is unavailable, so proceeding is refused')).toBeVisible();
    const control = region.getByRole('button', { name: new RegExp(`^${c.name}`) });
    await expect(control).toContainText('no preview: unreachable');
    await control.click();
    const failures = region.getByRole('alert').filter({ hasText: 'could not be read' });
    await expect(failures).toHaveCount(SECTIONS.length);
    const unreachable = evidence.failedPreviews[0].sectionOutcomes[0].failure!;
    expect(unreachable.code).toBe('unreachable');
    await expect(failures.first()).toContainText(`unreachable ${unreachable.message}`);
    await expect(failures.first()).toContainText(unreachable.recoveryAction);
    await expectAccessible(page);
    await screenshot(page, 'rollout-unreachable');

    // Proceeding is refused with the API's reason (the state did not change: no "changed" message).
    await page.getByRole('button', { name: 'Proceed' }).click();
    await page.getByRole('dialog', { name: 'Roll out to 2 targets?' }).getByRole('button', { name: 'Proceed' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Refused' })).toContainText('evidence is unavailable');
    await expect(page.getByText('The rollout changed since you opened it')).toHaveCount(0);

    // The app is back: refreshing the evidence from the page makes it available.
    await c.control.clearFaults();
    await page.getByRole('button', { name: 'Refresh evidence' }).click();
    await expect(region.getByRole('button', { name: new RegExp(`^${c.name}`) })).toContainText('to create', { timeout: 60_000 });
    expect((await rollout(id)).remainingPreview).toMatchObject({ availability: 'available' });
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.getByRole('dialog', { name: 'Abort the rollout?' }).getByRole('button', { name: 'Abort' }).click();
    await rolloutUntil(id, (r) => r.finishedAt !== null);
  } finally {
    await c.control.clearFaults();
  }
});

test('the list shows every rollout with its status, canary, targets and age, filtered by status', async ({ page }) => {
  const { body } = await callApi<{ items: Rollout[] }>(services.arrgo(), 'GET', '/canary/rollouts?pageSize=50');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rollouts' }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(body.items.length + 1);
  const first = body.items[0];
  const row = table.getByRole('row', { name: new RegExp(`^Rollout ${first.id} `) });
  await expect(row).toContainText(first.canary.instanceName);
  await expect(row).toContainText(`${first.targets.length}: ${first.targets.map((t) => t.instanceName).join(', ')}`);
  await expect(row).toContainText(/ago|now/);
  await expectAccessible(page);
  await screenshot(page, 'rollouts');

  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Aborted' }).click();
  const aborted = body.items.filter((r) => r.status === 'aborted');
  expect(aborted.length).toBeGreaterThan(0);
  await expect(table.getByRole('row')).toHaveCount(aborted.length + 1);
  for (const r of aborted) await expect(table.getByRole('link', { name: `Rollout ${r.id}`, exact: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Rolling out' }).click();
  await expect(page.getByText('No rollout is rolling out')).toBeVisible();

  // A deep link reloads to the rollout it names.
  await page.goto(`/rollouts/${first.id}`);
  await expect(page.getByRole('heading', { name: `Rollout ${first.id}`, level: 1 })).toBeVisible();
  // One that does not exist says so, in the API's words.
  await page.goto('/rollouts/99999');
  await expect(page.getByRole('alert')).toContainText('Rollout 99999 not found');
});

test("the start form's advanced options open in the mode stored for their section, also after a reload", async ({ page }) => {
  await page.goto('/rollouts/new');
  const options = page.getByRole('region', { name: 'Advanced options' });
  const insist = options.getByRole('checkbox', { name: /Start even when the canary has nothing to change/ });
  await expect(options).toBeVisible();
  await expect(insist).toHaveCount(0);
  await options.getByRole('switch', { name: 'Advanced' }).click();
  await expect(insist).toBeVisible();
  const stored = await apiUntil<{ items?: { section_key: string; mode: string }[] } | { section_key: string; mode: string }[]>(services.arrgo(), '/ui-preferences', (body) =>
    (Array.isArray(body) ? body : (body.items ?? [])).some((p) => p.section_key === 'rollouts:start:options' && p.mode === 'advanced'),
  );
  expect(stored).toBeTruthy();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Advanced options' }).getByRole('checkbox', { name: /Start even when the canary has nothing to change/ })).toBeVisible();
  await expectAccessible(page);
});
