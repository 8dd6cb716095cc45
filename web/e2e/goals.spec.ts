import { test } from '@playwright/test';
import type { components } from '../../src/client';
import { callApi, expect, expectAccessible, expectFitsPhone, screenshot, services } from './fixtures';
import { ensureAdmin, linkSampleDatabase, signInToDashboard } from './fleet';

// Goal sliders through the console: one slider moved by keyboard, the plan redrawn with the
// score it changes; adopting is refused once (the database moved since the preview: the 409 is
// explained and the plan computed again), then adopted, then reverted.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

type Catalog = components['schemas']['GoalCatalog'];
type Preview = components['schemas']['GoalPreview'];
type Resolved = components['schemas']['ResolvedList'];
type UserOp = components['schemas']['UserOp'];

const PROFILE = 'Movies 1080p';
let databaseId: number;

async function profileScores(): Promise<Record<string, number>> {
  const list = await callApi<Resolved>(services.arrgo(), 'GET', `/pcd/${databaseId}/resolved/qualityProfile`);
  const entity = list.body.entities.find((e) => e.name === PROFILE)!.entity as { customFormats: Record<'all' | 'movie_app', { name: string; score: number }[]> };
  // A Radarr scores a format from its movie_app entry, else from its all entry.
  return Object.fromEntries([...entity.customFormats.all, ...entity.customFormats.movie_app].map((s) => [s.name, s.score]));
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureAdmin();
  databaseId = await linkSampleDatabase('goals-sample');
});

test('move a slider and the plan changes; adopt it (after a 409 explained), then revert it', async ({ page }) => {
  test.setTimeout(120_000);
  const catalog = (await callApi<Catalog>(services.arrgo(), 'GET', '/goals/presets')).body;
  const preset = catalog.presets[0];
  const request = { databaseId, arrType: 'movie_app', profileName: PROFILE, preset: preset.id, weights: preset.suggestedWeights };
  const before = (await callApi<Preview>(services.arrgo(), 'POST', '/goals/preview', request)).body;
  const stricter = { ...request, weights: { ...preset.suggestedWeights, unwantedStrictness: 100 } };
  const after = (await callApi<Preview>(services.arrgo(), 'POST', '/goals/preview', stricter)).body;
  // The format whose score the slider moves (the plan says so; the test checks the page shows it).
  const moved = after.plan.decisions.find(
    (d) => before.plan.decisions.find((b) => b.customFormatName === d.customFormatName)!.score !== d.score && after.appliedChanges.some((c) => c.customFormatName === d.customFormatName),
  )!;
  expect(moved).toBeDefined();
  const oldScore = before.plan.decisions.find((d) => d.customFormatName === moved.customFormatName)!.score;
  const scoresBefore = await profileScores();

  await signInToDashboard(page);
  await page.goto(`/goals?database=${databaseId}&arrType=movie_app&profile=${encodeURIComponent(PROFILE)}`);
  await expect(page.getByRole('heading', { name: 'Goals', level: 1 })).toBeVisible();
  await expect(page.getByRole('radio', { name: new RegExp(preset.title) })).toBeChecked();
  const decisions = page.getByRole('table', { name: 'Decisions' });
  const row = decisions.getByRole('row', { name: new RegExp(`^${moved.customFormatName}`) });
  await expect(row.getByRole('cell').nth(2)).toHaveText(String(oldScore));

  // One slider, by keyboard: to its top.
  const previewed = page.waitForResponse((r) => r.url().endsWith('/goals/preview') && (r.request().postDataJSON() as typeof stricter).weights.unwantedStrictness === 100);
  const slider = page.getByRole('slider', { name: 'Unwanted strictness' });
  await slider.focus();
  await slider.press('End');
  await expect(slider).toHaveAttribute('aria-valuenow', '100');
  expect((await previewed).status()).toBe(200);
  await expect(row.getByRole('cell').nth(2)).toHaveText(String(moved.score));
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText(String(after.plan.thresholds.minimumScore));
  await expectAccessible(page);

  // Someone edits the profile meanwhile: adopting the plan on the page is refused, and said why.
  const edit = await callApi(services.arrgo(), 'PATCH', `/pcd/${databaseId}/entities/quality_profile/${encodeURIComponent(PROFILE)}`, { changes: [{ path: 'description', value: 'Edited while the plan was open' }] });
  expect(edit.status).toBe(200);
  const adopt = async () => {
    await page.getByRole('button', { name: 'Adopt the plan' }).click();
    await page.getByRole('dialog', { name: `Adopt the plan for ${PROFILE}?` }).getByRole('button', { name: 'Adopt the plan' }).click();
  };
  await adopt();
  const refusal = page.getByRole('alert').filter({ hasText: 'The plan was not adopted' });
  await expect(refusal).toContainText('stale');
  await expect(page.getByText('The database changed after this plan was computed')).toBeVisible();
  await screenshot(page, 'goals-stale');

  // Adopt the plan computed again on the current state.
  await adopt();
  const adopted = page.getByRole('alert').filter({ hasText: 'The plan was adopted' });
  await expect(adopted).toBeVisible();
  const ops = (await callApi<UserOp[]>(services.arrgo(), 'GET', `/pcd/${databaseId}/user-ops`)).body;
  expect(ops).toHaveLength(2);
  expect((await profileScores())[moved.customFormatName]).toBe(moved.score);
  // The plan is computed on the adopted state: nothing left to change.
  await expect(page.getByText('The profile already is what this plan asks: adopting it changes nothing.')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'goals');
  await expectFitsPhone(page);

  // Revert: the profile's scores are as before, the other edit stays.
  await adopted.getByRole('button', { name: 'Revert the adopted plan' }).click();
  await expect(page.getByRole('button', { name: 'Adopt the plan' })).toBeEnabled();
  await expect(row.getByRole('cell').nth(2)).toHaveText(String(moved.score));
  const left = (await callApi<UserOp[]>(services.arrgo(), 'GET', `/pcd/${databaseId}/user-ops`)).body;
  expect(left.map((op) => op.id)).toEqual([ops[0].id]);
  expect(await profileScores()).toEqual(scoresBefore);
});
