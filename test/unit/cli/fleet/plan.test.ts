import Ajv2020 from 'ajv/dist/2020';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { exportFleet, secretEnvName } from '../../../../src/cli/fleet/export';
import { fleetJsonSchema } from '../../../../src/cli/fleet/json-schema';
import { loadFleet } from '../../../../src/cli/fleet/load';
import { planFleet, resolveSecrets, secretsOf, UnplannableError, type FleetConfiguration } from '../../../../src/cli/fleet/plan';

const selection = { qualityProfiles: ['Movies 1080p'], delayProfile: 'Standard', naming: null, mediaSettings: null, qualityDefinitions: null, metadataProfile: null, namespace: 'ns', deleteUnmanaged: false };

function configuration(): FleetConfiguration {
  const verification = { status: 'verified', checkedAt: null, appName: null, version: null, reason: null } as const;
  return {
    instances: [
      { id: 1, name: 'Radarr 4K', arrType: 'movie_app', baseUrl: 'http://127.0.0.1:7878', enabled: true, tags: ['4k'], apiKeySet: true, verification, createdAt: '', updatedAt: '' },
      { id: 2, name: 'sonarr', arrType: 'series_app', baseUrl: 'http://127.0.0.1:8989', enabled: false, tags: [], apiKeySet: true, verification, createdAt: '', updatedAt: '' },
    ],
    syncConfigs: [{ instanceId: 1, databases: [{ databaseId: 5, selection }] }],
    databases: [{ id: 5, name: 'main', enabled: true, source: { kind: 'git', url: 'https://git.example.org/pcd.git', path: null, branch: 'dev', tokenSet: true } } as FleetConfiguration['databases'][number]],
    refGuideSources: [{ id: 3, name: 'guide', arrType: 'movie_app', enabled: true, origin: { kind: 'local', url: null, path: '/guides', branch: null, tokenSet: false }, databaseIds: [5] } as FleetConfiguration['refGuideSources'][number]],
    channels: [{ id: 9, name: 'ops', kind: 'webhook', events: ['drift.detected'], enabled: true, urlSet: true, secretSet: true, createdAt: '', updatedAt: '' }],
    settings: {
      driftPolling: { enabled: true, intervalMinutes: 30 },
      refGuideRefresh: { enabled: false, intervalMinutes: 1440 },
      syncHistoryRetention: { enabled: true, retentionDays: 90, retentionMaxEntries: 0 },
      snapshots: { maxPerDatabase: 50, retentionDays: 0 },
    },
  };
}

describe('fleet plan and export', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-plan-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const load = async (text: string) => {
    await writeFile(path.join(dir, 'arrgo.yaml'), text);
    return loadFleet('arrgo.yaml', { cwd: dir });
  };

  it('an exported configuration plans no changes, with --prune too, and names its secrets by stable !env references', async () => {
    const text = exportFleet(configuration(), 'http://arrgo:7979/api/v1/fleet/schema');
    expect(text.startsWith('# yaml-language-server: $schema=http://arrgo:7979/api/v1/fleet/schema\n')).toBe(true);
    expect(text).toContain('apiKey: !env ARRGO_INSTANCE_RADARR_4K_API_KEY');
    expect(text).toContain('token: !env ARRGO_DATABASE_MAIN_TOKEN');
    expect(text).toContain('secret: !env ARRGO_CHANNEL_OPS_SECRET');
    const fleet = await load(text);
    expect(planFleet(fleet, configuration(), { prune: true })).toEqual([]);
  });

  it('plans the fields that differ, and with --prune the deletion of what the file does not name', async () => {
    const fleet = await load(
      'instances:\n  - name: Radarr 4K\n    type: movie_app\n    baseUrl: http://127.0.0.1:7878/\n    apiKey: !env K\n    tags: [4k, hdr]\n' +
        'databases:\n  - name: main\n    source: { git: https://git.example.org/pcd.git, branch: dev, token: !env T }\n' +
        'settings:\n  driftPolling: { enabled: true, intervalMinutes: 30 }\n  snapshots: { maxPerDatabase: 10, retentionDays: 0 }\n',
    );
    const changes = planFleet(fleet, configuration(), { prune: true }).map(({ action, kind, name, fields }) => ({ action, kind, name, fields }));
    expect(changes).toEqual([
      { action: 'update', kind: 'instance', name: 'Radarr 4K', fields: [{ field: 'tags', from: ['4k'], to: ['4k', 'hdr'] }] },
      { action: 'delete', kind: 'syncConfig', name: 'Radarr 4K', fields: [{ field: 'sync', from: ['main'], to: null }] },
      { action: 'update', kind: 'setting', name: 'snapshots', fields: [{ field: 'maxPerDatabase', from: 50, to: 10 }] },
      { action: 'delete', kind: 'instance', name: 'sonarr', fields: [] },
      { action: 'delete', kind: 'channel', name: 'ops', fields: [] },
      { action: 'delete', kind: 'refGuideSource', name: 'guide', fields: [] },
    ]);
  });

  it('never puts a secret in a change; the request carries a marker resolved only when sent', async () => {
    await writeFile(path.join(dir, 'key.txt'), 'file-secret-value\n');
    const fleet = await load('instances:\n  - name: new\n    type: music_app\n    baseUrl: http://127.0.0.1:8686\n    apiKey: !file key.txt\n');
    const [change] = planFleet(fleet, configuration(), { prune: false });
    expect(JSON.stringify(change)).not.toContain('file-secret-value');
    expect(change.fields.find((f) => f.field === 'apiKey')).toEqual({ field: 'apiKey', from: null, to: '!file key.txt' });
    expect(secretsOf([change])).toHaveLength(1);
    expect((await resolveSecrets(change.request.call === 'createInstance' ? change.request.body! : {}, {})).apiKey).toBe('file-secret-value');
  });

  it("refuses to plan a database whose source changed (arrgo keeps the database's edits)", async () => {
    const fleet = await load('databases:\n  - name: main\n    source: { local: /elsewhere }\n');
    expect(() => planFleet(fleet, configuration(), { prune: false })).toThrow(UnplannableError);
  });

  it('names exported secrets stably', () => {
    expect(secretEnvName('INSTANCE', 'radarr-main', 'API_KEY')).toBe('ARRGO_INSTANCE_RADARR_MAIN_API_KEY');
    expect(secretEnvName('CHANNEL', ' Ops / Discord ', 'URL')).toBe('ARRGO_CHANNEL_OPS_DISCORD_URL');
  });

  it('the shipped JSON Schema (schemas/arrgo-fleet.schema.json) is the one generated from the zod schema', async () => {
    const shipped = JSON.parse(await readFile(path.resolve(__dirname, '..', '..', '..', '..', 'schemas', 'arrgo-fleet.schema.json'), 'utf8'));
    // Regenerate with: npx tsc -p tsconfig.build.json && node dist/cli/main.js fleet-schema > schemas/arrgo-fleet.schema.json
    expect(shipped).toEqual(fleetJsonSchema());
  });
});

describe('fleet secrets', () => {
  it('a secret whose variable is not set fails with its name, never a value', async () => {
    const fleet = { databases: [], refGuideSources: [], channels: [], settings: {}, secretBase: new Map(), instances: [{ name: 'x', type: 'movie_app' as const, baseUrl: 'http://127.0.0.1:1', apiKey: { env: 'FLEET_UNSET_KEY' } }] };
    const [change] = planFleet(fleet, configuration(), { prune: false });
    await expect(resolveSecrets(change.request.call === 'createInstance' ? change.request.body! : {}, {})).rejects.toThrow('The environment variable FLEET_UNSET_KEY is not set (a secret of the fleet file)');
  });
});

describe('the fleet JSON Schema', () => {
  it('compiles as draft 2020-12 and accepts an exported file, refusing an unknown key', () => {
    const validate = new Ajv2020({ strict: false }).compile(fleetJsonSchema());
    const exported = JSON.parse(JSON.stringify({ version: 1, instances: [{ name: 'a', type: 'movie_app', baseUrl: 'http://127.0.0.1:1', apiKey: { env: 'K' }, sync: [{ database: 'd', qualityProfiles: ['P'] }] }], 'x-anchors': { any: 1 } }));
    expect(validate(exported)).toBe(true);
    expect(validate({ instances: [{ name: 'a', type: 'movie_app', baseUrl: 'http://x', apiKey: { env: 'K' }, colour: 'blue' }] })).toBe(false);
    expect(validate({ unknown: 1 })).toBe(false);
  });
});
