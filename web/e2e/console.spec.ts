import { test } from '@playwright/test';
import { ADMIN, apiUntil, callApi, expect, expectAccessible, screenshot, services, signIn } from './fixtures';

// The journey of a new user on a fresh arrgo, in order: the tests share the arrgo started by the
// global setup (its admin user, its instances).
test.describe.configure({ mode: 'serial' });

const NAVIGATION = ['Dashboard', 'Instances', 'Databases', 'Sync', 'Rollouts', 'Drift', 'Health', 'Timeline', 'Notifications', 'Settings', 'Configuration', 'Graph', 'Goals', 'Compare', 'Release tester', 'Guides', 'Snapshots', 'Parity'];
const SAMPLE_PCD = 'examples/sample-pcd';

test.use({ baseURL: process.env.ARRGO_E2E_URL });

test('first start: every page leads to the setup page, which creates the admin user and signs in', async ({ page }) => {
  await page.goto('/instances');
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole('heading', { name: 'Create the admin user' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'setup');

  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
  await page.getByLabel('Repeat the password').fill(`${ADMIN.password}!`);
  await expect(page.getByText('The two passwords differ')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create the user and sign in' })).toBeDisabled();
  await page.getByLabel('Repeat the password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create the user and sign in' }).click();

  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('No instances yet')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(NAVIGATION);
  // The setup page is done for good.
  await page.goto('/setup');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('sign out, a wrong password refused with the API message, sign in back to the page asked for', async ({ page }) => {
  await page.goto('/');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  await page.goto('/instances');
  await expect(page).toHaveURL(/\/login\?next=%2Finstances$/);
  await expectAccessible(page);
  await screenshot(page, 'login');
  await signIn(page, { username: ADMIN.username, password: 'not the password' });
  await expect(page.getByRole('alert')).toContainText('Wrong username or password');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Instances', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/instances$/);
});

test.describe('signed in', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/login');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  });

  test('add an instance: the connection is tested before saving; an app of another type is refused', async ({ page }) => {
    const radarr = services.radarr();
    const sonarr = services.sonarr();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Instances' }).click();
    await expect(page.getByText('No instances yet')).toBeVisible();

    // A Sonarr registered as a Radarr: refused, nothing stored.
    await page.getByRole('button', { name: 'Add instance' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an instance' });
    await dialog.getByLabel('Name').fill('not-a-radarr');
    await dialog.getByLabel('URL').fill(sonarr.url);
    await dialog.getByLabel('API key').fill(sonarr.apiKey);
    await dialog.getByRole('button', { name: 'Test and save' }).click();
    const refusal = dialog.getByRole('alert');
    await expect(refusal).toContainText('appMismatch');
    await expect(refusal).toContainText('Sonarr');
    await expect(refusal).toContainText('Radarr');
    await expectAccessible(page);
    await screenshot(page, 'instance-refused', { fullPage: false });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await callApi<{ totalRecords: number }>(services.arrgo(), 'GET', '/instances')).body.totalRecords).toBe(0);

    // The emulated Radarr: tested, connected, listed with its version.
    await page.getByRole('button', { name: 'Add instance' }).click();
    await dialog.getByLabel('Name').fill('radarr-main');
    await dialog.getByLabel('URL').fill(radarr.url);
    await dialog.getByLabel('API key').fill(radarr.apiKey);
    await dialog.getByLabel('Tags').fill('movies');
    await dialog.getByLabel('Tags').press('Enter');
    await dialog.getByRole('button', { name: 'Test and save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('radarr-main: connected')).toBeVisible();
    const row = page.getByRole('row', { name: /radarr-main/ });
    await expect(row).toContainText(radarr.version);
    await expect(row).toContainText('verified');
    await expect(row).toContainText('movies');
    await expectAccessible(page);
    await screenshot(page, 'instances');

    // Disable and enable from the list: each change is stored before the switch takes a new one.
    const enabled = row.getByRole('switch', { name: 'radarr-main enabled' });
    const storedEnabled = async () => (await callApi<{ items: { enabled: boolean }[] }>(services.arrgo(), 'GET', '/instances')).body.items.map((i) => i.enabled);
    await enabled.focus();
    await page.keyboard.press('Space');
    await expect.poll(storedEnabled).toEqual([false]);
    await expect(enabled).toHaveAttribute('aria-busy', 'false');
    await expect(enabled).not.toBeChecked();
    await page.keyboard.press('Space');
    await expect.poll(storedEnabled).toEqual([true]);
    await expect(enabled).toHaveAttribute('aria-busy', 'false');
    await expect(enabled).toBeChecked();
  });

  test('the sync configuration editor picks from the database and saves what the API stores', async ({ page }) => {
    const arrgo = services.arrgo();
    const linked = await callApi<{ id: number }>(arrgo, 'POST', '/databases', { name: 'sample', source: { kind: 'local', path: SAMPLE_PCD } });
    expect(linked.status).toBe(201);
    await apiUntil<{ cache: { status: string } }>(arrgo, `/databases/${linked.body.id}`, (db) => db.cache.status === 'ready');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Instances' }).click();
    await page.getByRole('link', { name: 'radarr-main' }).click();
    await expect(page.getByRole('heading', { name: 'radarr-main', level: 1 })).toBeVisible();
    await expect(page.getByText('Not synced yet')).toBeVisible();

    await page.getByRole('combobox', { name: 'Database', exact: true }).click();
    await page.getByRole('option', { name: /^sample/ }).click();
    await page.getByRole('combobox', { name: 'Quality profiles' }).click();
    // The profiles offered are those the API says a Radarr can use.
    const parity = await callApi<{ profiles: { name: string; compatibleArrTypes: string[] }[] }>(arrgo, 'GET', `/compatibility/parity?databaseId=${linked.body.id}`);
    const usable = parity.body.profiles.filter((p) => p.compatibleArrTypes.includes('movie_app')).map((p) => p.name);
    expect(usable).toContain('Movies 1080p');
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText(usable.sort());
    await page.getByRole('option', { name: 'Movies 1080p' }).click();
    await page.keyboard.press('Escape');
    for (const [field, name] of [
      ['Delay profile', 'Standard'],
      ['Naming', 'Standard'],
      ['Quality definitions', 'Movie Sizes'],
    ]) {
      await page.getByRole('combobox', { name: field, exact: true }).click();
      await page.getByRole('option', { name, exact: true }).click();
    }
    await page.getByLabel('Namespace').fill('arrgo');
    await page.getByRole('button', { name: 'Save sync configuration' }).click();
    await expect(page.getByText('The sync configuration of radarr-main was saved')).toBeVisible();

    const instanceId = Number(new URL(page.url()).pathname.split('/').pop());
    const config = await callApi<Record<string, unknown>>(arrgo, 'GET', `/instances/${instanceId}/sync-config`);
    expect(config.body).toMatchObject({
      databaseId: linked.body.id,
      qualityProfiles: ['Movies 1080p'],
      delayProfile: 'Standard',
      naming: 'Standard',
      mediaSettings: null,
      qualityDefinitions: 'Movie Sizes',
      namespace: 'arrgo',
      deleteUnmanaged: false,
    });
    // A reload on the deep link shows the stored configuration.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'radarr-main', level: 1 })).toBeVisible();
    await expect(page.getByText(/^Saved /)).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Naming' })).toHaveValue('Standard');
    await expectAccessible(page);
    await screenshot(page, 'instance');
  });

  test('the dashboard shows the emulated Radarr with its version, drift, health and last sync', async ({ page }) => {
    const arrgo = services.arrgo();
    const { body: list } = await callApi<{ items: { id: number }[] }>(arrgo, 'GET', '/instances');
    const id = list.items[0].id;
    expect((await callApi(arrgo, 'POST', `/drift/${id}/check`)).status).toBe(200);
    expect((await callApi(arrgo, 'POST', `/config-health/${id}/recompute`)).status).toBe(200);
    const overview = await apiUntil<{ instances: { drift: { status: string }; health: { band: string } | null }[] }>(arrgo, '/fleet/overview', (o) => o.instances[0]?.health !== null);

    await page.reload();
    const row = page.getByRole('row', { name: /radarr-main/ });
    await expect(row).toContainText('Radarr');
    await expect(row).toContainText(services.radarr().version);
    await expect(row).toContainText(overview.instances[0].drift.status);
    await expect(row).toContainText(overview.instances[0].health!.band);
    await expect(page.getByRole('region', { name: 'Drift' })).toContainText(overview.instances[0].drift.status);
    await expect(page.getByText('No rollout is waiting at the gate.')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'dashboard');

    // Light theme: kept in localStorage, the only thing the console keeps there.
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await expectAccessible(page);
    await screenshot(page, 'dashboard-light');
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(['arrgo-color-scheme']);
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });

  test('at phone width the navigation sits behind a menu button', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('link', { name: 'Instances' })).toBeHidden();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Instances' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'phone-navigation', { fullPage: false });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Instances' }).click();
    await expect(page.getByRole('heading', { name: 'Instances', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open navigation' })).toBeVisible();
    await screenshot(page, 'phone-instances', { fullPage: false });
  });

  test('every page of the navigation loads and passes the accessibility scan', async ({ page }) => {
    for (const name of NAVIGATION) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
      await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
      await expectAccessible(page);
    }
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
    // A refused read shows the API's own message, with a retry.
    await page.goto('/instances/999999');
    await expect(page.getByRole('alert')).toContainText('Instance 999999 not found');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expectAccessible(page);
  });

  test('a write with the session cookie but without the CSRF header is refused', async ({ page }) => {
    const answer = await page.evaluate(async () => {
      const response = await fetch('api/v1/instances/1', { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ enabled: false }) });
      return { status: response.status, body: await response.json() };
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toContain('X-Arrgo-Csrf');
  });
});
