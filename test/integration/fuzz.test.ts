import fs from 'node:fs';
import path from 'node:path';
import { addInstance, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { mapOperations, runFuzz, siteOperations, summarize, type FuzzReport } from '../helpers/api-fuzz';
import type { DbKind } from '../helpers/databases';
import { startArrgo, type Harness } from '../helpers/harness';

/**
 * Seeded fuzzing of every operation in the OpenAPI document (sign-in and sessions included) and of
 * the console's, the docs page's and the metrics' routes, loopback only (arrgo, its emulated app and a
 * local PCD); the generator is test/helpers/api-fuzz.ts. `npm test` runs the short form;
 * `npm run fuzz` the long one (FUZZ_REQUESTS=10000; docs/reliability.md#fuzz records its figures).
 * FUZZ_SEED picks another seed, FUZZ_DB the engine (postgresql or sqlite; the tests' default otherwise); FUZZ_REPORT_FILE names a file for every finding as JSON.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 700);
const ROOT = path.resolve(__dirname, '..', '..');

type Schema = Record<string, any>;

describe('fuzzing every operation of the OpenAPI document and the console\'s routes', () => {
  let h: Harness;
  let radarr: FleetInstance;
  beforeAll(async () => {
    h = await startArrgo(process.env.FUZZ_DB ? { db: process.env.FUZZ_DB as DbKind } : {});
    const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    radarr = await addInstance(h, 'movie_app', { name: 'fuzz radarr', databaseId });
  });
  afterAll(async () => {
    await h?.close();
    await radarr?.emulator.close();
  });

  it(`answers ${REQUESTS} generated requests (seed ${SEED}) without a 5xx, with {error} bodies, and leaks nothing`, async () => {
    const report: FuzzReport = await runFuzz(h, {
      seed: SEED,
      count: REQUESTS,
      ids: [1, radarr.id, 2147483647],
      appLeakMarkers: radarr.emulator.leakMarkers.slice(0, 2),
      appKeys: [radarr.apiKey],
      repoRoot: ROOT,
    });
    process.stdout.write(`${summarize(report)}\n`);
    if (process.env.FUZZ_REPORT_FILE) fs.writeFileSync(process.env.FUZZ_REPORT_FILE, JSON.stringify({ ...report, statuses: Object.fromEntries(report.statuses), byAuth: Object.fromEntries(report.byAuth), succeeded: [...report.succeeded] }, null, 1));
    expect(report.requests).toBe(REQUESTS);
    expect(report.serverErrors).toEqual([]);
    expect(report.dropped).toEqual([]);
    expect(report.badBodies).toEqual([]);
    expect(report.leaks).toEqual([]);
    // Every operation of the document and every route beside it was sent something, sign-in and sessions included.
    const doc = (await h.get('/openapi.json')).body;
    const operations = [...mapOperations(doc), ...siteOperations()];
    expect(operations.length).toBeGreaterThanOrEqual(90);
    expect(report.operations).toBe(operations.length);
    expect(REQUESTS).toBeGreaterThanOrEqual(operations.length * 5);
    expect(operations.map((o) => o.operationId)).toEqual(expect.arrayContaining(['login', 'setupAdmin', 'logout', 'getAuthStatus', 'listUiPreferences', 'site:/', 'site:/metrics', 'site:/docs/']));
    // The fuzzing reached the handlers, not only the validation in front of them, signed in both ways.
    expect(report.succeeded.size).toBeGreaterThan(operations.length / 3);
    expect(report.byAuth.get('session')).toBeGreaterThan(REQUESTS / 5);
    expect(report.byAuth.get('apiKey')).toBeGreaterThan(REQUESTS / 3);
  }, 120_000 + REQUESTS * 200);
});

describe('request bounds in the OpenAPI document', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startArrgo();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('documents a bound for every string, number and array a request carries, and refuses control characters in strings', async () => {
    const doc = (await h.get('/openapi.json')).body as Schema;
    const unbounded: string[] = [];
    const seen = new Set<Schema>();
    const walk = (raw: Schema, where: string): void => {
      let schema = raw;
      while (schema?.$ref) schema = doc.components.schemas[schema.$ref.split('/').pop()!];
      if (!schema || seen.has(schema)) return;
      seen.add(schema);
      for (const part of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) walk(part, where);
      if (schema.enum) return;
      if (schema.type === 'string' && !(schema.maxLength !== undefined && schema.pattern) && !/^date-time$/.test(schema.format ?? '')) unbounded.push(`${where}: string without maxLength and a control-character pattern`);
      if (schema.type === 'string' && schema.format === 'date-time' && schema.maxLength === undefined) unbounded.push(`${where}: date-time without maxLength`);
      if ((schema.type === 'integer' || schema.type === 'number') && (schema.maximum === undefined || schema.minimum === undefined)) unbounded.push(`${where}: number without minimum and maximum`);
      if (schema.type === 'array') {
        if (schema.maxItems === undefined) unbounded.push(`${where}: array without maxItems`);
        walk(schema.items ?? {}, `${where}[]`);
      }
      for (const [key, prop] of Object.entries<Schema>(schema.properties ?? {})) walk(prop, `${where}.${key}`);
    };
    for (const [p, methods] of Object.entries<Schema>(doc.paths)) {
      for (const [method, op] of Object.entries<Schema>(methods)) {
        for (const param of op.parameters ?? []) walk(param.schema, `${method.toUpperCase()} ${p} ${param.in}.${param.name}`);
        const body = op.requestBody?.content?.['application/json']?.schema;
        if (body) walk(body, `${method.toUpperCase()} ${p} body`);
        seen.clear();
      }
    }
    expect(unbounded).toEqual([]);
    expect(doc.components.schemas.InstanceCreate.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 100, pattern: expect.any(String) });
    expect(doc.components.schemas.SyncHistorySettingsPatch.properties.retentionDays).toMatchObject({ type: 'integer', minimum: 1, maximum: 3650 });
    expect(doc.paths['/api/v1/instances/{id}'].get.parameters[0].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 2147483647 });
  });
});
