// An emulated fleet for the browser tests of the rollout and drift pages: Radarr emulators started
// here, registered through arrgo's API with a sync configuration, and driven from outside as a
// person (or another process) would: the app's own API for a hand edit, the emulator's control
// endpoints for faults and a fresh install.
import { expect, type Page } from '@playwright/test';
import { EmulatorControlClient } from '../../src/emulators/control-client';
import { ADMIN, apiUntil, callApi, services, signIn } from './fixtures';
import { startEmulatedApp, type EmulatedApp } from './services';

export const SAMPLE_PCD = 'examples/sample-pcd';

/** The admin user exists (another spec may have created it; a spec run alone creates it). */
export async function ensureAdmin(): Promise<void> {
  const { status } = await callApi(services.arrgo(), 'POST', '/auth/setup', ADMIN);
  expect([201, 409]).toContain(status);
}

/** Links the sample PCD under `name` and waits until its state is ready; returns its id. */
export async function linkSampleDatabase(name: string): Promise<number> {
  const arrgo = services.arrgo();
  const linked = await callApi<{ id: number }>(arrgo, 'POST', '/databases', { name, source: { kind: 'local', path: SAMPLE_PCD } });
  expect(linked.status).toBe(201);
  await apiUntil<{ cache: { status: string } }>(arrgo, `/databases/${linked.body.id}`, (db) => db.cache.status === 'ready');
  return linked.body.id;
}

export interface FleetRadarr {
  id: number;
  name: string;
  app: EmulatedApp;
  control: EmulatorControlClient;
}

/** What each Radarr of these tests syncs from the sample database. */
export const MOVIES_SYNC = { qualityProfiles: ['Movies 1080p'], delayProfile: 'Standard', naming: 'Standard', mediaSettings: 'Standard', qualityDefinitions: 'Movie Sizes' };

/** Starts an emulated Radarr and registers it (verified) with the movie sync configuration. */
export async function addEmulatedRadarr(name: string, databaseId: number): Promise<FleetRadarr> {
  const arrgo = services.arrgo();
  const app = await startEmulatedApp('radarr');
  const created = await callApi<{ id: number; verification: { status: string } }>(arrgo, 'POST', '/instances', { name, arrType: 'movie_app', baseUrl: app.url, apiKey: app.apiKey });
  expect(created.status).toBe(201);
  expect(created.body.verification.status).toBe('verified');
  const configured = await callApi(arrgo, 'PUT', `/instances/${created.body.id}/sync-config`, { databaseId, ...MOVIES_SYNC });
  expect(configured.status).toBe(200);
  return { id: created.body.id, name, app, control: new EmulatorControlClient(app.url, app.apiKey) };
}

/** A request to the emulated app's own API (/api/v3), as a person editing it by hand would send. */
export async function callApp<T = unknown>(app: EmulatedApp, method: string, apiPath: string, body?: unknown): Promise<T> {
  const response = await fetch(`${app.url}/api/v3${apiPath}`, {
    method,
    headers: { 'X-Api-Key': app.apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok, `${method} ${apiPath} answered ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

/** Signs in through the form and waits for the dashboard. */
export async function signInToDashboard(page: Page): Promise<void> {
  await page.goto('/login');
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}
