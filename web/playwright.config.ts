import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// Browser tests of the console (`npm test` runs them after jest). They drive Debian's chromium
// (Playwright's own browser download is unreachable here) against the real service started from
// dist/ by the global setup: API, worker, embedded Temporal dev server, SQLite, and emulated apps.
// Loopback only.
const CHROMIUM = process.env.ARRGO_E2E_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  outputDir: path.join(os.tmpdir(), 'arrgo-playwright'),
  globalSetup: './e2e/global-setup.ts',
  // One arrgo and one browser: the journeys share state (the admin user, the instances) in order.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  forbidOnly: !!process.env.CI,
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 860 },
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    // Times and relative dates in screenshots read the same everywhere.
    locale: 'en-GB',
    timezoneId: 'UTC',
    screenshot: 'only-on-failure',
    trace: 'off',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
});
