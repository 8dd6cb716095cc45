import { test } from '@playwright/test';
import { ADMIN, callApi, expect, expectAccessible, services, signIn } from './fixtures';

// The console behind a reverse proxy's path: the second arrgo of the global setup runs with
// URL_BASE=/arrgo. Links, deep links, the API calls and the session cookie all stay under it.
test.describe.configure({ mode: 'serial' });

test('under URL_BASE /arrgo: setup, navigation, a reload on a deep link, sign-out and sign-in', async ({ page }) => {
  const based = services.based();
  expect(new URL(based.url).pathname).toBe('/arrgo');
  const radarr = services.radarr();
  const created = await callApi<{ id: number }>(based, 'POST', '/instances', { name: 'radarr-behind-proxy', arrType: 'movie_app', baseUrl: radarr.url, apiKey: radarr.apiKey });
  expect(created.status).toBe(201);

  await page.goto(`${based.url}/`);
  await expect(page).toHaveURL(`${based.url}/setup`);
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
  await page.getByLabel('Repeat the password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create the user and sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(`${based.url}/`);
  await expect(page.getByRole('row', { name: /radarr-behind-proxy/ })).toContainText(radarr.version);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Instances' }).click();
  await expect(page).toHaveURL(`${based.url}/instances`);
  await page.getByRole('link', { name: 'radarr-behind-proxy' }).click();
  await expect(page).toHaveURL(`${based.url}/instances/${created.body.id}`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'radarr-behind-proxy', level: 1 })).toBeVisible();
  await expectAccessible(page);

  // Links out of the router keep the base too.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('link', { name: 'API documentation' })).toHaveAttribute('href', '/arrgo/docs/');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${based.url}/login`);
  await page.goto(`${based.url}/instances/${created.body.id}`);
  await expect(page).toHaveURL(`${based.url}/login?next=%2Finstances%2F${created.body.id}`);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'radarr-behind-proxy', level: 1 })).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.map((c) => [c.name, c.path, c.httpOnly, c.sameSite])).toEqual([['arrgo_session', '/arrgo/', true, 'Strict']]);
});
