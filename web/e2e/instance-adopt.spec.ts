import { test } from '@playwright/test';
import { callApi, expect, expectAccessible, screenshot, services } from './fixtures';
import { callApp, ensureAdmin, linkSampleDatabase, signInToDashboard } from './fleet';
import { startEmulatedApp } from './services';

// "Adopt this instance" from the instance page: a Radarr tuned by hand (one custom format of its
// own) is adopted into the sample database: the preview says what is created and what is skipped,
// the apply writes it and links the snapshot taken before, and the format is in the database.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: process.env.ARRGO_E2E_URL });

const FORMAT = 'Hand-made x265';
let databaseId: number;
let instanceId: number;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureAdmin();
  databaseId = await linkSampleDatabase('adopt-sample');
  const app = await startEmulatedApp('radarr');
  await callApp(app, 'POST', '/customformat', {
    name: FORMAT,
    includeCustomFormatWhenRenaming: false,
    specifications: [{ name: 'x265', implementation: 'ReleaseTitleSpecification', negate: false, required: false, fields: [{ name: 'value', value: '[xh][ .]?265' }] }],
  });
  const created = await callApi<{ id: number }>(services.arrgo(), 'POST', '/instances', { name: 'Hand-tuned Radarr', arrType: 'movie_app', baseUrl: app.url, apiKey: app.apiKey });
  expect(created.status).toBe(201);
  instanceId = created.body.id;
});

test('preview the adoption of an instance, apply it, and find the snapshot taken before', async ({ page }) => {
  test.setTimeout(120_000);
  await signInToDashboard(page);
  await page.goto(`/instances/${instanceId}`);
  await expect(page.getByRole('heading', { name: 'Adopt this instance', level: 2 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Adopt into database' }).click();
  await page.getByRole('option', { name: 'adopt-sample' }).click();
  await page.getByRole('button', { name: 'Preview adoption' }).click();

  const preview = page.getByRole('region', { name: 'Adoption preview' });
  await expect(preview.getByRole('list', { name: 'Created' })).toContainText(`custom format ${FORMAT}`);
  await expect(preview.getByRole('list', { name: 'Created' })).toContainText('regular expression');
  // Radarr's default definitions without a preferred-size limit have no PCD value: skipped, with the reason.
  await expect(preview.getByRole('list', { name: 'Skipped' })).toContainText('no "no limit" preferred size');
  await expectAccessible(page);
  await screenshot(page, 'instance-adopt');

  await preview.getByRole('button', { name: 'Apply adoption' }).click();
  await expect(preview.getByRole('status')).toContainText('user edits written to the database');
  const snapshot = preview.getByRole('link', { name: /^snapshot \d+$/ });
  await expect(snapshot).toHaveAttribute('href', new RegExp(`/snapshots\\?database=${databaseId}&snapshot=\\d+$`));
  await expectAccessible(page);

  const exported = await callApi(services.arrgo(), 'GET', `/pcd/export?databaseId=${databaseId}&entityType=custom_format&name=${encodeURIComponent(FORMAT)}`);
  expect(exported.status).toBe(200);
});
