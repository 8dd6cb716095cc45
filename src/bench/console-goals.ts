import fs from 'node:fs';
import path from 'node:path';
import { median, type Benchmark } from './harness';
import { SHARED_DIR, startBenchService, until } from './service-harness';

const WEB_ROOT = path.resolve(__dirname, '..', '..', 'dist', 'web');
const CHROMIUM = process.env.ARRGO_E2E_CHROMIUM ?? '/usr/bin/chromium';
const TRASH_DIR = path.join(SHARED_DIR, 'data', 'pcd', 'trash-pcd');
const ROUNDS = 10;
const ADMIN = { username: 'bench', password: 'bench-password-0123' };

interface ProfileEntity {
  name: string;
  entity: { customFormats: Record<string, unknown[]>; qualities: unknown[] };
}

/**
 * The Goals page on trash-pcd's largest movie profile, in Debian's Chromium: one slider moved by
 * one key press, after it rested, until the plan is redrawn (the answer drawn, no update pending),
 * against the same POST /goals/preview made alone over HTTP, alternating, median of each.
 */
export const consoleGoalsBenchmark: Benchmark = {
  name: 'console-goals',
  unavailable: () => {
    if (!fs.existsSync(path.join(WEB_ROOT, 'index.html'))) return `${WEB_ROOT} is not built (npm run build)`;
    if (!fs.existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (Debian's chromium package; ARRGO_E2E_CHROMIUM names another path)`;
    if (!fs.existsSync(TRASH_DIR)) return `${TRASH_DIR} is absent`;
    return null;
  },
  async run(report) {
    const bench = await startBenchService();
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const linked = await bench.request('POST', '/databases', { name: 'trash', source: { kind: 'local', path: TRASH_DIR } });
      const databaseId = linked.body.id as number;
      await until(() => bench.request('GET', `/databases/${databaseId}`), (r) => r.body.cache.status === 'ready');
      const profiles = (await bench.request<{ entities: ProfileEntity[] }>('GET', `/pcd/${databaseId}/resolved/qualityProfile`)).body.entities;
      // The profile with the most movie scores and qualities (the goal-preview bench's pick, for Radarr).
      const size = (p: ProfileEntity) => (p.entity.customFormats.all?.length ?? 0) + (p.entity.customFormats.movie_app?.length ?? 0) + p.entity.qualities.length;
      const profile = [...profiles].sort((a, b) => size(b) - size(a) || (a.name < b.name ? -1 : 1))[0].name;
      const catalog = (await bench.request('GET', '/goals/presets')).body;
      const preset = catalog.presets[0];

      const origin = bench.baseUrl.replace(/\/api\/v1$/, '');
      const setup = await fetch(`${origin}/api/v1/auth/setup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
      if (setup.status !== 201) throw new Error(`setup: ${setup.status}`);
      const [cookieName, cookieValue] = (setup.headers.get('set-cookie') ?? '').split(';')[0].split('=');
      const context = await browser.newContext({ baseURL: origin });
      await context.addCookies([{ name: cookieName, value: cookieValue, url: origin }]);
      const page = await context.newPage();
      await page.goto(`/goals?database=${databaseId}&arrType=movie_app&profile=${encodeURIComponent(profile)}`);
      await page.getByRole('table', { name: 'Decisions' }).waitFor({ state: 'visible', timeout: 60_000 });
      const slider = page.getByRole('slider', { name: 'Unwanted strictness' });
      await slider.focus();

      // Each round a new value (0, 5, 10, ...), so neither side answers from a cache.
      const move = async (key: string, value: number) => {
        const started = performance.now();
        const answered = page.waitForResponse((r) => r.url().endsWith('/goals/preview') && (r.request().postDataJSON() as { weights: { unwantedStrictness: number } }).weights.unwantedStrictness === value);
        await slider.press(key);
        if ((await answered).status() !== 200) throw new Error(`preview for ${value} failed`);
        await page.getByRole('status', { name: 'Updating the plan' }).waitFor({ state: 'detached' });
        // The next frame: the answer is drawn.
        await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(null)))');
        return performance.now() - started;
      };
      const alone = async (value: number) => {
        const body = { databaseId, arrType: 'movie_app', profileName: profile, preset: preset.id, weights: { ...preset.suggestedWeights, unwantedStrictness: value } };
        const started = performance.now();
        const answer = await bench.request('POST', '/goals/preview', body);
        if (answer.status !== 200) throw new Error(`preview alone for ${value}: ${answer.status}`);
        return performance.now() - started;
      };
      await move('Home', 0);
      await alone(0);
      const onPage: number[] = [];
      const api: number[] = [];
      for (let value = 5; onPage.length < ROUNDS; value += 5) {
        // The preset's own value was asked on load: the page answers it from its cache.
        if (value === preset.suggestedWeights.unwantedStrictness) {
          await slider.press('ArrowRight');
          continue;
        }
        // A move after the slider rested (a drag's later moves wait for it to rest again).
        await page.waitForTimeout(400);
        onPage.push(await move('ArrowRight', value));
        api.push(await alone(value + 1));
      }
      await context.close();
      report({ name: `POST /goals/preview alone for "${profile}" (movie_app), median of ${ROUNDS}`, values: { ms: median(api) } });
      report({
        name: `Goals page: one slider key press until the plan is redrawn, median of ${ROUNDS}`,
        values: { ms: median(onPage) },
        ratio: { value: median(onPage) / median(api), baseline: 'POST /goals/preview alone', goal: '<= 1.5x (issue 27)' },
      });
    } finally {
      await browser.close();
      await bench.close();
    }
  },
};
