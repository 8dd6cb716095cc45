import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { ROOT } from './services';

export { expect };

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the browser tests run through web/playwright.config.ts (its global setup starts arrgo)`);
  return value;
}

/** What the global setup started. */
export const services = {
  arrgo: () => ({ url: env('ARRGO_E2E_URL'), apiKey: env('ARRGO_E2E_API_KEY') }),
  based: () => ({ url: env('ARRGO_E2E_BASED_URL'), apiKey: env('ARRGO_E2E_BASED_API_KEY') }),
  radarr: () => ({ url: env('ARRGO_E2E_RADARR_URL'), apiKey: env('ARRGO_E2E_RADARR_KEY'), version: env('ARRGO_E2E_RADARR_VERSION') }),
  sonarr: () => ({ url: env('ARRGO_E2E_SONARR_URL'), apiKey: env('ARRGO_E2E_SONARR_KEY') }),
};

/** The admin user the setup test creates. */
export const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

/** A request with the API key, for what the tests arrange outside the console. */
export async function callApi<T = unknown>(target: { url: string; apiKey: string }, method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${target.url}/api/v1${apiPath}`, {
    method,
    headers: { 'X-Api-Key': target.apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Waits until the API's answer passes `done`. */
export async function apiUntil<T>(target: { url: string; apiKey: string }, apiPath: string, done: (body: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await callApi<T>(target, 'GET', apiPath);
    if (status === 200 && done(body)) return body;
    if (Date.now() > deadline) throw new Error(`${apiPath} did not reach the expected state in ${timeoutMs} ms: ${status} ${JSON.stringify(body).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The page passes an axe-core scan: no serious or critical violation (WCAG 2.x A and AA rules and best practices). */
export async function expectAccessible(page: Page) {
  // Colours are read as drawn: a notification or popover still fading in would be scanned half
  // transparent. Finite transitions and animations end first (a spinning loader never does).
  // A function, not a string: the console's Content-Security-Policy refuses eval.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect(serious, `axe violations on ${page.url()}`).toEqual([]);
}

/** The page fits a phone's width: nothing but tables (which scroll inside themselves) is wider. */
export async function expectFitsPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 860 });
}

// Every run takes the pictures; they replace docs/console's (the pictures of docs/console.md) only
// when asked, since ports and relative times differ from run to run and a test run must leave the
// checkout clean.
const SCREENSHOTS = process.env.ARRGO_UPDATE_SCREENSHOTS === '1' ? path.join(ROOT, 'docs', 'console') : path.join(os.tmpdir(), 'arrgo-console-screenshots');

/** Saves the page as <name>.png: into docs/console with ARRGO_UPDATE_SCREENSHOTS=1, else a temporary folder. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // Nothing blinks or moves in a picture: wait for loaders and transitions to settle. (The
  // drag-and-drop library's live region is a status too, always present and never drawn.)
  await expect(page.getByRole('status').and(page.locator(':not([id^="DndLiveRegion"])'))).toHaveCount(0);
  // A full page is taken from the top: scrolled, the fixed header would be drawn across its middle.
  if (options.fullPage ?? true) await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: options.fullPage ?? true, animations: 'disabled' });
}

/** Signs in through the form. */
export async function signIn(page: Page, credentials = ADMIN) {
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
