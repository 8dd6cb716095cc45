import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { driftScheduleId } from '../services/schedules';
import { startEmulatorFleet } from './emulator-fleet';
import type { BrowserContext } from 'playwright-core';
import { consoleBenchUnavailable, consoleSession, launchBenchBrowser, signedInContext, timeApiCalls, visitPage, WEB_ROOT } from './browser';
import { median, type Benchmark } from './harness';
import { runScheduleNow, startBenchService } from './service-harness';

const INSTANCES = 200;
const ROUNDS = 5;

/**
 * The console's dashboard over 200 emulated instances, in Debian's Chromium: the time from
 * navigation until the instance table is usable (its last row's link visible), against the time
 * of the same API calls the page made, made alone (no browser, one after another as the page
 * needs them). Also the JavaScript and CSS the first page loads, gzipped.
 */
export const consoleBenchmark: Benchmark = {
  name: 'console',
  unavailable: consoleBenchUnavailable,
  async run(report) {
    report({ name: 'first page, JavaScript and CSS gzipped (goal <= 300 KB, issue 26)', values: { kb: firstPageGzippedBytes() / 1024 } });

    const bench = await startBenchService();
    const fleet = await startEmulatorFleet('radarr', INSTANCES, 0);
    const browser = await launchBenchBrowser();
    try {
      for (const [i, target] of fleet.instances.entries()) {
        const created = await bench.request('POST', '/instances', { name: `radarr-${String(i).padStart(3, '0')}`, arrType: 'movie_app', baseUrl: target.baseUrl, apiKey: target.apiKey });
        if (created.status !== 201) throw new Error(`registering instance ${i}: ${created.status}`);
      }
      // Every row has a stored drift result, as a fleet that has been polled does.
      await bench.request('PUT', '/drift/settings', { enabled: true, intervalMinutes: 1440 });
      await runScheduleNow(bench, driftScheduleId(bench.service.config.temporal.taskQueue));
      const session = await consoleSession(bench);
      const { origin } = session;
      const lastRow = `radarr-${String(INSTANCES - 1).padStart(3, '0')}`;

      const cold: number[] = [];
      const warm: number[] = [];
      const apiTimes: number[] = [];
      const phases: { htmlMs: number; firstApiMs: number; lastApiDoneMs: number; usableMs: number }[] = [];
      let apiCalls: string[] = [];
      // A returning user: one context, its cache warm after the first visit.
      const returning = await signedInContext(browser, session);
      const visit = (context: BrowserContext) => visitPage(context, `${origin}/`, (page) => page.getByRole('link', { name: lastRow, exact: true }).waitFor({ state: 'visible', timeout: 60_000 }));
      const apiAlone = () => timeApiCalls(session, apiCalls);
      for (let round = 0; round <= ROUNDS; round++) {
        // A new context: nothing cached, as on a first visit.
        const context = await signedInContext(browser, session);
        const first = await visit(context);
        await context.close();
        const again = await visit(returning);
        if (round === 0) {
          apiCalls = first.calls; // round 0 warms both sides up and records what the page asks for
          await apiAlone();
          continue;
        }
        cold.push(first.usableMs);
        warm.push(again.usableMs);
        phases.push(again.phase);
        apiTimes.push(await apiAlone());
      }
      await returning.close();
      const api = median(apiTimes);
      const byUsable = [...phases].sort((a, b) => a.usableMs - b.usableMs)[Math.floor(phases.length / 2)];
      report({ name: `the page's API calls alone (${apiCalls.join(', ')}), median of ${ROUNDS}`, values: { ms: api } });
      report({
        name: `dashboard with ${INSTANCES} instances, returning visit (cached assets), navigation until the table is usable, median of ${ROUNDS}`,
        values: { ms: median(warm), htmlMs: byUsable.htmlMs, firstApiRequestMs: byUsable.firstApiMs, lastApiAnswerMs: byUsable.lastApiDoneMs },
        ratio: { value: median(warm) / api, baseline: "the page's API calls alone", goal: '<= 1.5x (issue 26)' },
      });
      report({
        name: `dashboard with ${INSTANCES} instances, first visit (nothing cached), median of ${ROUNDS}`,
        values: { ms: median(cold) },
        ratio: { value: median(cold) / api, baseline: "the page's API calls alone" },
      });
    } finally {
      await browser.close();
      await fleet.close();
      await bench.close();
    }
  },
};

/** The JavaScript and CSS that index.html loads (scripts, stylesheets and module preloads), gzipped. */
export function firstPageGzippedBytes(root = WEB_ROOT): number {
  const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  return files.reduce((sum, file) => sum + gzipSync(fs.readFileSync(path.join(root, file)), { level: 9 }).length, 0);
}
