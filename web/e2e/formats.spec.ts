import { test, type Page } from '@playwright/test';
import { callApi, expect, expectAccessible, screenshot, services, signIn } from './fixtures';
import { openEditor as openEntityEditor, saveEditor as save } from './entity-editing';
import { ensureAdmin, linkSampleDatabase } from './fleet';

// The formats and titles of a database: release titles tested against its custom formats (parse
// results, matches, scores, and why a condition passed), on the sample PCD.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

let databaseId: number;

test.beforeAll(async () => {
  await ensureAdmin();
  databaseId = await linkSampleDatabase('formats-sample');
});

test.beforeEach(async ({ page }) => {
  await page.goto('/login');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

/** Ten movie titles; the first matches x265 (HD) and Preferred Groups (-500 + 400 in Movies 1080p) and names no language (Not English undecided). */
const TITLES = [
  'The.Movie.2019.1080p.BluRay.x265-SampleA',
  'Another.Film.2020.2160p.UHD.BluRay.x265-GRP',
  'Some.Movie.2018.1080p.WEB-DL.DDP5.1.Atmos.H.264-GRP',
  'Old.Classic.1955.1080p.BluRay.x264-GRP',
  'New.Release.2023.HDCAM.x264-GRP',
  'Epic.Story.2010.Directors.Cut.1080p.BluRay.x264-GRP',
  'Quiet.Night.2015.720p.WEBRip.x264-GRP',
  'Big.Movie.2021.1080p.BluRay.REMUX.AVC.TrueHD.Atmos-GRP',
  'Film.Noir.2012.1080p.HDTV.x264-SampleB',
  'French.Film.2017.FRENCH.1080p.BluRay.x264-GRP',
];

const results = (page: Page) => page.getByRole('table', { name: 'Tested titles' });
/** The body rows of the results (the header row excluded). */
const resultRows = (page: Page) => results(page).locator('tbody > tr');

test('the release tester on ten titles: parse results, matches, scores, sorting, filtering, and a condition explained', async ({ page }) => {
  await page.goto(`/release-tester?database=${databaseId}`);
  await expect(page.getByRole('heading', { name: 'Release tester', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Quality profile' }).click();
  await page.getByRole('option', { name: 'Movies 1080p' }).click();
  await expect(page).toHaveURL(/profile=Movies\+1080p/);
  await page.getByRole('textbox', { name: 'Release titles' }).fill(TITLES.join('\n'));
  await expect(page.getByText('10 titles', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Test titles' }).click();

  await expect(page.getByText('10 titles tested')).toBeVisible();
  await expect(resultRows(page)).toHaveCount(10);
  const first = resultRows(page).filter({ hasText: TITLES[0] });
  // Parsed title, year, quality, group, languages, matching (and undecided) formats and the score in Movies 1080p.
  await expect(first.getByRole('cell')).toHaveText(['The.Movie.2019.1080p.BluRay.x265-SampleA', 'The Movie', '2019', 'bluray 1080p', 'SampleA', 'Unknown', 'Preferred Groupsx265 (HD)Not English?', '-100', 'Explain']);
  await expect(resultRows(page).filter({ hasText: TITLES[4] }).getByRole('cell').nth(7)).toHaveText('-10000');

  // Sorted by score: the cam first, ascending; then descending the Atmos titles lead.
  await results(page).getByRole('button', { name: 'Score' }).click();
  await expect(results(page).getByRole('columnheader', { name: /Score/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(resultRows(page).first()).toContainText(TITLES[4]);
  await results(page).getByRole('button', { name: /Score/ }).click();
  await expect(resultRows(page).first().getByRole('cell').nth(7)).toHaveText('100');

  // Filtered by a matching format, then by text.
  await page.getByRole('combobox', { name: 'Matching format' }).click();
  await page.getByRole('option', { name: 'Atmos', exact: true }).click();
  await expect(resultRows(page)).toHaveCount(2);
  await expect(page.getByText('2 of 10 titles shown')).toBeVisible();
  await page.getByRole('textbox', { name: 'Filter results' }).fill('REMUX');
  await expect(resultRows(page)).toHaveCount(1);
  await page.getByRole('textbox', { name: 'Filter results' }).fill('');
  await page.getByRole('combobox', { name: 'Matching format' }).click();
  await page.getByRole('option', { name: 'x265 (HD)' }).click();
  await expect(resultRows(page)).toHaveCount(1);

  // The explanation of one row, asked for that row alone: each condition with why it passed.
  await page.getByRole('button', { name: `Explain ${TITLES[0]}` }).click();
  const explanation = page.getByRole('region', { name: `Explanation of ${TITLES[0]}` });
  const x265 = explanation.getByRole('table', { name: 'Conditions of x265 (HD)' });
  await expect(x265.getByRole('row', { name: /x265 · required release_title pass the pattern matches the title/ })).toBeVisible();
  await expect(x265.getByRole('row', { name: /Not 2160p · required · negated resolution pass the parsed resolution is not "2160p" \(negated: passes\)/ })).toBeVisible();
  await expect(explanation.getByRole('table', { name: 'Conditions of Atmos' })).toHaveCount(0);
  await explanation.getByText('All formats').click();
  await expect(explanation.getByRole('table', { name: 'Conditions of Atmos' }).getByRole('row', { name: /Atmos · required release_title fail the pattern does not match the title/ })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'release-tester');
});

test('the release tester refuses more than 1,000 titles before sending, and works by keyboard at phone width', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/release-tester?database=${databaseId}&type=series`);
  await expect(page.getByRole('radio', { name: 'Series (as Sonarr)' })).toBeChecked();
  const box = page.getByRole('textbox', { name: 'Release titles' });
  await box.fill(Array.from({ length: 1001 }, (_, i) => `Show.S01E${String(i % 99).padStart(2, '0')}.1080p.WEB-DL-GRP${i}`).join('\n'));
  await expect(page.getByText('1,001 titles: at most 1,000 can be tested at once')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Test titles' })).toBeDisabled();
  await box.fill('Show.Name.S01.1080p.WEB-DL.x265-SampleB');
  await box.press('Tab');
  await expect(page.getByRole('button', { name: 'Test titles' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(resultRows(page)).toHaveCount(1);
  await page.getByRole('button', { name: 'Explain Show.Name.S01.1080p.WEB-DL.x265-SampleB' }).focus();
  await page.keyboard.press('Enter');
  const explanation = page.getByRole('region', { name: 'Explanation of Show.Name.S01.1080p.WEB-DL.x265-SampleB' });
  await expect(explanation.getByRole('table', { name: 'Conditions of Season Pack' }).getByRole('row', { name: /release_type pass/ })).toBeVisible();
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 860 });
});

const openEditor = (page: Page, portableType: string, name: string) => openEntityEditor(page, databaseId, portableType, name);

/** The resolved payload of one entity, through the API. */
async function resolvedEntity<T>(entityType: string, name: string, arrType?: string): Promise<T> {
  const list = await callApi<{ entities: { name: string; entity: T }[] }>(services.arrgo(), 'GET', `/pcd/${databaseId}/resolved/${entityType}${arrType ? `?arrType=${arrType}` : ''}`);
  const found = list.body.entities.find((e) => e.name === name);
  expect(found, `${entityType} "${name}"`).toBeDefined();
  return found!.entity;
}

test('the regular-expression editor matches test strings the .NET way, warns where JavaScript differs, and saves the pattern', async ({ page }) => {
  await openEditor(page, 'regular_expression', 'x265');
  const edit = page.getByRole('region', { name: 'Edit' });
  await edit.getByRole('textbox', { name: 'Test strings' }).fill(['Movie.2019.1080p.BluRay.x265-GRP', 'Movie.2019.1080p.BluRay-ZØHEVC', 'Movie.2019.1080p.BluRay.x264-GRP'].join('\n'));
  const results = edit.getByRole('table', { name: 'Test string results' });
  await expect(results.getByRole('row')).toHaveCount(4);
  // \bHEVC\b: .NET reads Ø as a word character, JavaScript does not.
  await expect(results.getByRole('row', { name: /ZØHEVC · differs no match matches/ })).toBeVisible();
  await expect(results.getByRole('row', { name: /x265-GRP matches matches/ })).toBeVisible();
  await expect(edit.getByRole('table', { name: 'Constructs read differently' }).getByRole('row', { name: /\\b \\B a boundary between Unicode word characters/ })).toBeVisible();

  const pattern = edit.getByRole('textbox', { name: 'Pattern' });
  await pattern.fill('(?i)[xh][ ._-]?265|(?>HEVC)');
  await expect(edit.getByText('JavaScript cannot compile this pattern at all.')).toBeVisible();
  await expect(results.getByRole('row', { name: /x265-GRP matches does not compile/ })).toBeVisible();
  await expect(edit.getByRole('table', { name: 'Constructs read differently' })).toContainText('(?>…)');
  await pattern.fill('(?<a-b>x)');
  await expect(edit.getByRole('alert').filter({ hasText: 'balancing groups' })).toBeVisible();
  await pattern.fill('[xh][ ._-]?265|\\bHEVC\\b|AV1');
  await expectAccessible(page);
  await screenshot(page, 'editor-regular-expression');
  await save(page, 'x265');
  await expect.poll(async () => (await resolvedEntity<{ pattern: string }>('regularExpression', 'x265')).pattern).toBe('[xh][ ._-]?265|\\bHEVC\\b|AV1');
});

test('the custom-format editor: conditions of the types the apps have, the regular-expression picker, the live test, and a saved condition', async ({ page }) => {
  await openEditor(page, 'custom_format', 'Cam');
  const edit = page.getByRole('region', { name: 'Edit' });
  const camRip = edit.getByRole('group', { name: 'Condition Cam Rip' });
  await expect(camRip.getByRole('combobox', { name: 'Regular expression' })).toHaveValue('Cam Rip');
  await expect(camRip.getByText('\\b(CAM|HDCAM|TS|TELESYNC)\\b')).toBeVisible();
  const notBluray = edit.getByRole('group', { name: 'Condition Not Bluray' });
  await expect(notBluray.getByRole('combobox', { name: 'Source' })).toHaveValue('bluray');

  // The live test explains each title against the saved format, condition by condition.
  const live = edit.getByRole('region', { name: 'Live test' });
  await live.getByRole('textbox', { name: 'Titles to test' }).fill('New.Release.2023.HDCAM.x264-GRP\nOld.Movie.1999.1080p.BluRay.x264-GRP');
  await live.getByRole('button', { name: 'Test titles' }).click();
  const cam = live.getByRole('region', { name: 'Test of New.Release.2023.HDCAM.x264-GRP' });
  await expect(cam.getByText('matches', { exact: true })).toBeVisible();
  await expect(cam.getByRole('row', { name: /Cam Rip release_title pass the pattern matches the title/ })).toBeVisible();
  const bluray = live.getByRole('region', { name: 'Test of Old.Movie.1999.1080p.BluRay.x264-GRP' });
  await expect(bluray.getByRole('row', { name: /Not Bluray · required · negated source fail the parsed source is "bluray" \(negated: fails\)/ })).toBeVisible();

  // A new condition: a year range for Radarr; the type list and values come from the API.
  await edit.getByRole('button', { name: 'Add a condition' }).click();
  const added = edit.getByRole('group', { name: 'Condition Condition 3' });
  await added.getByRole('textbox', { name: 'Condition name' }).fill('Recent');
  const recent = edit.getByRole('group', { name: 'Condition Recent' });
  await recent.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'year', exact: true }).click();
  await expect(recent.getByText('Only Radarr has this condition type; the others leave it out.')).toBeVisible();
  await recent.getByRole('textbox', { name: 'From year' }).fill('2020');
  await expectAccessible(page);
  await screenshot(page, 'editor-custom-format');
  await save(page, 'Cam');
  await expect
    .poll(async () => (await resolvedEntity<{ conditions: { name: string }[] }>('customFormat', 'Cam')).conditions.find((c) => c.name === 'Recent'))
    .toEqual({ name: 'Recent', type: 'year', arrType: 'all', negate: false, required: false, minYear: 2020, maxYear: null });
  // The saved condition is explained at once (the explanation is read again after the save).
  await expect(live.getByRole('region', { name: 'Test of New.Release.2023.HDCAM.x264-GRP' }).getByRole('row', { name: /Recent year pass the year 2023 is within the range/ })).toBeVisible();
});

test('the naming editor previews names for sample movies, inserts a token and saves the format', async ({ page }) => {
  await openEditor(page, 'movie_app_naming', 'Standard');
  const edit = page.getByRole('region', { name: 'Edit' });
  const rendered = edit.getByRole('table', { name: 'Rendered names' });
  await expect(rendered.getByRole('row', { name: /a movie with an edition The Movie Part Two \(2010\) \{edition-Director's Cut\} \[Bluray-1080p Proper\]-GRP/ })).toBeVisible();
  await expect(rendered.getByRole('row', { name: /without edition or release group The Movie Part Two \(2010\) \[Bluray-1080p Proper\]$/ })).toBeVisible();
  const format = edit.getByRole('textbox', { name: 'Standard movie format' });
  await format.fill('{Movie.CleanTitle}.{Release.Year}');
  await format.press('End');
  await edit.getByRole('button', { name: 'Insert {Quality Full}' }).click();
  await expect(format).toHaveValue('{Movie.CleanTitle}.{Release.Year}{Quality Full}');
  await format.fill('{Movie.CleanTitle}.{Release.Year}{.Quality Full}{-Release Group} {Movie Rating}');
  await expect(rendered.getByRole('row', { name: /a movie with an edition The\.Movie\.Part\.Two\.2010\.Bluray-1080p Proper-GRP \{Movie Rating\}/ })).toBeVisible();
  await expect(edit.getByText('Unknown to the app, kept as text: {Movie Rating}').first()).toBeVisible();
  await format.fill('{Movie.CleanTitle}.{Release.Year}{.Quality Full}{-Release Group}');
  await expectAccessible(page);
  await screenshot(page, 'editor-naming');
  await save(page, 'Standard');
  await expect.poll(async () => (await resolvedEntity<{ movieFormat: string }>('naming', 'Standard', 'movie_app')).movieFormat).toBe('{Movie.CleanTitle}.{Release.Year}{.Quality Full}{-Release Group}');
});
