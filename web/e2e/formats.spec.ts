import { test, type Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn } from './fixtures';
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
