/**
 * A demo fleet against a running arrgo (`npm start` in another terminal):
 *
 *   npm run demo
 *
 * Starts emulated Radarr, Sonarr and Lidarr instances, registers them, links the sample PCD,
 * configures what each syncs, and generates a preview of each, then keeps the emulators running
 * so previews, syncs, drift checks and canary rollouts can be tried from the API docs and watched
 * in the Temporal Web UI. With `npm start` on its defaults in the same directory nothing needs
 * setting; otherwise ARRGO_URL (default http://localhost:7979) and the API key (ARRGO_API_KEY, else
 * DATA_DIR/api-key, DATA_DIR defaulting to ./data) say where arrgo is. The emulators listen on
 * 17878, 18989 and 18686, or on free ports when those are taken.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ArrType } from '../domain/arr-types';
import { startEmulator, type Emulator, type EmulatorApp } from '../emulators';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'examples', 'sample-pcd');
const FLEET: { app: EmulatorApp; arrType: ArrType; port: number; config: Record<string, unknown> }[] = [
  { app: 'radarr', arrType: 'movie_app', port: 17878, config: { qualityProfiles: ['Movies 1080p'], delayProfile: 'Standard', naming: 'Standard', mediaSettings: 'Standard', qualityDefinitions: 'Movie Sizes' } },
  { app: 'sonarr', arrType: 'series_app', port: 18989, config: { qualityProfiles: ['Series 1080p'], delayProfile: 'Standard', naming: 'Standard', mediaSettings: 'Standard', qualityDefinitions: 'Series Sizes' } },
  {
    app: 'lidarr',
    arrType: 'music_app',
    port: 18686,
    config: { qualityProfiles: ['Music Lossless'], delayProfile: 'Standard', naming: 'Standard', mediaSettings: 'Standard', qualityDefinitions: 'Music Sizes', metadataProfile: 'Studio Albums' },
  },
];

async function main(): Promise<void> {
  const base = (process.env.ARRGO_URL ?? 'http://localhost:7979').replace(/\/+$/, '') + '/api/v1';
  const apiKey = process.env.ARRGO_API_KEY ?? readKey();
  const call = async (method: string, apiPath: string, body?: unknown) => {
    const response = await fetch(base + apiPath, {
      method,
      headers: { 'X-Api-Key': apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (response.status >= 400) throw new Error(`${method} ${apiPath}: ${response.status} ${parsed?.error ?? ''}`);
    return parsed;
  };
  const wait = async <T>(fn: () => Promise<T>, ok: (v: T) => boolean) => {
    for (let i = 0; i < 600; i++) {
      const value = await fn();
      if (ok(value)) return value;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('timed out');
  };

  const databases = (await call('GET', '/databases')) as { id: number; name: string }[];
  const database = databases.find((d) => d.name === 'demo-sample') ?? (await call('POST', '/databases', { name: 'demo-sample', source: { kind: 'local', path: SAMPLE } }));
  await wait(() => call('GET', `/databases/${database.id}`), (d) => d.cache.status === 'ready');
  process.stdout.write(`linked the sample PCD as database ${database.id}\n`);

  const emulators: Emulator[] = [];
  const existing = ((await call('GET', '/instances?pageSize=200')) as { items: { id: number; name: string }[] }).items;
  for (const member of FLEET) {
    const key = `demo-${member.app}-key-0123456789`;
    const emulator = await startEmulator({ app: member.app, apiKey: key, port: (await portFree(member.port)) ? member.port : 0 });
    emulators.push(emulator);
    const name = `Demo ${emulator.appName}`;
    const found = existing.find((i) => i.name === name);
    // An instance from an earlier demo is pointed at this run's emulator (its port may differ).
    const instance = found
      ? await call('PATCH', `/instances/${found.id}`, { baseUrl: emulator.baseUrl, apiKey: key })
      : await call('POST', '/instances', { name, arrType: member.arrType, baseUrl: emulator.baseUrl, apiKey: key });
    await call('PUT', `/instances/${instance.id}/sync-config`, { databaseId: database.id, ...member.config });
    const preview = await call('POST', '/sync/previews', { instanceId: instance.id });
    const ready = await wait(() => call('GET', `/sync/previews/${preview.id}`), (p) => p.status !== 'generating');
    process.stdout.write(
      `${name} (instance ${instance.id}) at ${emulator.baseUrl}: preview ${preview.id} ${ready.status}, ` +
        `${ready.counts.create} to create, ${ready.counts.update} to update, ${ready.counts.unchanged} unchanged\n`,
    );
  }
  process.stdout.write(
    '\nTry: POST /api/v1/sync/previews/{id}/apply, POST /api/v1/drift/{instanceId}/check, POST /api/v1/canary/rollouts\n' +
      'The emulators keep running; press Ctrl-C to stop them.\n',
  );
  const stop = () => void Promise.all(emulators.map((e) => e.close())).then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function readKey(): string {
  const file = path.resolve(process.env.DATA_DIR ?? path.join(process.cwd(), 'data'), 'api-key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new Error(`no API key: set ARRGO_API_KEY or run from the directory where npm start wrote ${file}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
