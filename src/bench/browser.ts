import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BenchService } from './service-harness';

export const WEB_ROOT = path.resolve(__dirname, '..', '..', 'dist', 'web');
const CHROMIUM = process.env.ARRGO_E2E_CHROMIUM ?? '/usr/bin/chromium';
const ADMIN = { username: 'bench', password: 'bench-password-0123' };

/** Why the console benches cannot run here (no built console, no Chromium), or null. */
export function consoleBenchUnavailable(): string | null {
  if (!fs.existsSync(path.join(WEB_ROOT, 'index.html'))) return `${WEB_ROOT} is not built (npm run build)`;
  if (!fs.existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (Debian's chromium package; ARRGO_E2E_CHROMIUM names another path)`;
  return null;
}

/** Debian's Chromium, headless, with nothing that would reach beyond loopback. */
export async function launchBenchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The bench service's console origin and a signed-in session cookie (the first user, made by setup). */
export async function consoleSession(bench: BenchService): Promise<{ origin: string; cookie: string }> {
  const origin = bench.baseUrl.replace(/\/api\/v1$/, '');
  const setup = await fetch(`${origin}/api/v1/auth/setup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
  if (setup.status !== 201) throw new Error(`setup: ${setup.status}`);
  return { origin, cookie: (setup.headers.get('set-cookie') ?? '').split(';')[0] };
}

/** A browser context signed in with the session cookie; a new one caches nothing, as a first visit. */
export async function signedInContext(browser: Browser, session: { origin: string; cookie: string }): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: session.origin });
  const [name, value] = session.cookie.split('=');
  await context.addCookies([{ name, value, url: session.origin }]);
  return context;
}

/** One visit of a console page: the API requests it made, and when it was usable. */
export interface PageVisit {
  calls: string[];
  usableMs: number;
  phase: { htmlMs: number; firstApiMs: number; lastApiDoneMs: number; usableMs: number };
}

/**
 * Opens `url` in a new page of `context` and waits until `usable` resolves: the time from
 * navigation, where it went (HTML, first API request, last API answer), and the API requests made.
 */
export async function visitPage(context: BrowserContext, url: string, usable: (page: Page) => Promise<unknown>): Promise<PageVisit> {
  const page = await context.newPage();
  const calls: string[] = [];
  const started = performance.now();
  let firstApiMs = -1;
  let lastApiDoneMs = -1;
  page.on('request', (request) => {
    const requested = new URL(request.url());
    if (!requested.pathname.startsWith('/api/')) return;
    calls.push(requested.pathname + requested.search);
    if (firstApiMs < 0) firstApiMs = performance.now() - started;
  });
  page.on('requestfinished', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) lastApiDoneMs = performance.now() - started;
  });
  await page.goto(url, { waitUntil: 'commit' });
  const htmlMs = performance.now() - started;
  await usable(page);
  const usableMs = performance.now() - started;
  await page.close();
  return { calls, usableMs, phase: { htmlMs, firstApiMs, lastApiDoneMs, usableMs } };
}

/** The same GET requests a page made, made alone one after another with the session: the baseline of a page's ratio. */
export async function timeApiCalls(session: { origin: string; cookie: string }, calls: string[]): Promise<number> {
  const started = performance.now();
  for (const call of calls) {
    const response = await fetch(session.origin + call, { headers: { Cookie: session.cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${call}: ${response.status}`);
  }
  return performance.now() - started;
}
