/**
 * Identity through the ledger: a PCD rename is an update of the same app id with a `name` change
 * (profile scores stay attached, nothing created or deleted), a hand rename on the app is drift on
 * `name`, a missing or stale ledger is rebuilt by name and reported, unmanaged entries say why, and
 * the executor targets the bound app id (a retried rename is idempotent).
 */
import type Database from 'better-sqlite3';
import { replayPcd, type PcdOp } from '../../../src/domain/pcd';
import {
  applyPlan,
  classifyDrift,
  ledgerWrites,
  planSync,
  readSyncSource,
  scopeIdentities,
  type LedgerEntry,
  type SyncPlan,
  type SyncSelection,
} from '../../../src/domain/sync';
import { sampleRepository } from '../pcd/helpers';
import { fetchLive, pending, sampleDatabase, sampleSelection, startApp, type AppUnderTest } from './helpers';

const DATABASE_ID = 7;
const repo = sampleRepository();
const selection = sampleSelection('movie_app');

function renamed(...ops: string[]): Database.Database {
  const base: PcdOp[] = ops.map((sql, i) => ({ layer: 'base', id: 9000 + i, file: `ops/9${i}.rename.sql`, position: 1, sql }));
  return replayPcd({ base: [...repo.base, ...base], tweaks: repo.tweaks }).resolved;
}

async function plan(db: Database.Database, target: AppUnderTest, ledger?: LedgerEntry[], sel: SyncSelection = selection): Promise<SyncPlan> {
  const source = scopeIdentities(readSyncSource(db, 'movie_app', sel), DATABASE_ID);
  return planSync({ arrType: 'movie_app', selection: sel, source, live: await fetchLive(target.client), ledger });
}

/** Applies a plan and returns the ledger as the apply activity would leave it. */
async function apply(planned: SyncPlan, target: AppUnderTest, ledger: LedgerEntry[] = []): Promise<LedgerEntry[]> {
  const outcomes = await applyPlan(planned.plan, target.client);
  const deletes = planned.plan.steps.filter((s) => s.op === 'delete');
  const writes = ledgerWrites(planned.plan.bindings ?? [], outcomes, deletes);
  const out = ledger.filter((e) => !writes.deletes.some((d) => d.entityType === e.entityType && d.appId === e.appId));
  for (const w of writes.upserts) {
    const existing = out.find((e) => e.entityType === w.entityType && e.appId === w.appId);
    if (existing) Object.assign(existing, { identity: w.identity, name: w.name, createdByArrgo: existing.createdByArrgo || w.created });
    else out.push({ entityType: w.entityType, appId: w.appId, identity: w.identity, name: w.name, createdByArrgo: w.created });
  }
  return out;
}

const atmosScore = (target: AppUnderTest, formatId: number) => {
  const profile = target.emulator.state.qualityProfiles.find((p) => p.name === 'Movies 1080p')!;
  return profile.formatItems.find((i) => i.format === formatId)?.score;
};

describe('identity through the ledger', () => {
  let target: AppUnderTest;
  let ledger: LedgerEntry[];
  let atmosId: number;

  beforeEach(async () => {
    target = await startApp('radarr');
    ledger = await apply(await plan(sampleDatabase(), target), target);
    atmosId = target.emulator.state.customFormats.find((f) => f.name === 'Atmos')!.id;
  });
  afterEach(() => target.emulator.close());

  it('binds every desired custom format and profile, created by arrgo, under scoped identities', () => {
    expect(ledger.find((e) => e.appId === atmosId && e.entityType === 'customFormat')).toEqual({
      entityType: 'customFormat',
      appId: atmosId,
      identity: `${DATABASE_ID}:Atmos`,
      name: 'Atmos',
      createdByArrgo: true,
    });
    expect(ledger.filter((e) => e.entityType === 'qualityProfile').map((e) => e.identity)).toEqual([`${DATABASE_ID}:Movies 1080p`]);
  });

  it('a PCD rename is one update with a name change, applied to the same id with the score intact', async () => {
    const score = atmosScore(target, atmosId);
    expect(score).not.toBe(0);
    const db = renamed(`UPDATE custom_formats SET name = 'Atmos (DD+)' WHERE name = 'Atmos'`);
    const planned = await plan(db, target, ledger);
    expect(pending(planned)).toEqual([`customFormat/Atmos (DD+) update ${JSON.stringify([{ field: 'name', type: 'changed', current: 'Atmos', desired: 'Atmos (DD+)' }])}`]);
    expect(planned.identity).toEqual({ rebuilt: 0, renamed: 1, stale: 0 });
    expect(planned.plan.steps).toEqual([expect.objectContaining({ kind: 'customFormat', op: 'upsert', action: 'update', remoteId: atmosId, identity: `${DATABASE_ID}:Atmos` })]);
    const formats = target.emulator.state.customFormats.length;
    const posts = target.emulator.writes.count('customformat', 'POST');
    ledger = await apply(planned, target, ledger);
    expect(target.emulator.state.customFormats.find((f) => f.id === atmosId)!.name).toBe('Atmos (DD+)');
    expect(target.emulator.state.customFormats.length).toBe(formats);
    expect(target.emulator.writes.count('customformat', 'POST')).toBe(posts);
    expect(target.emulator.writes.count('customformat', 'DELETE')).toBe(0);
    expect(atmosScore(target, atmosId)).toBe(score);
    expect(ledger.find((e) => e.appId === atmosId)).toMatchObject({ identity: `${DATABASE_ID}:Atmos`, name: 'Atmos (DD+)' });
    expect(pending(await plan(db, target, ledger))).toEqual([]);
  });

  it('without the ledger the same rename would be a create and an unmanaged entity (matched by name)', async () => {
    const planned = await plan(renamed(`UPDATE custom_formats SET name = 'Atmos (DD+)' WHERE name = 'Atmos'`), target);
    expect(planned.preview.qualityProfiles!.customFormats.filter((c) => c.action === 'create').map((c) => c.name)).toEqual(['Atmos (DD+)']);
  });

  it('a quality profile rename keeps its id', async () => {
    const profileId = target.emulator.state.qualityProfiles.find((p) => p.name === 'Movies 1080p')!.id;
    const sel = { ...selection, qualityProfiles: ['Films 1080p'] };
    const planned = await plan(renamed(`UPDATE quality_profiles SET name = 'Films 1080p' WHERE name = 'Movies 1080p'`), target, ledger, sel);
    expect(pending(planned)).toEqual([`qualityProfile/Films 1080p update ${JSON.stringify([{ field: 'name', type: 'changed', current: 'Movies 1080p', desired: 'Films 1080p' }])}`]);
    await apply(planned, target, ledger);
    expect(target.emulator.state.qualityProfiles.find((p) => p.id === profileId)!.name).toBe('Films 1080p');
    expect(target.emulator.writes.count('qualityprofile', 'POST')).toBe(1);
  });

  it('a hand rename on the app is drift on name, and a sync restores it', async () => {
    target.emulator.state.customFormats.find((f) => f.id === atmosId)!.name = 'Hand Renamed';
    const planned = await plan(sampleDatabase(), target, ledger);
    const drift = classifyDrift(planned.preview);
    expect(drift.drift.map((c) => [c.name, c.remoteId, c.fields])).toEqual([['Atmos', atmosId, [{ field: 'name', type: 'changed', current: 'Hand Renamed', desired: 'Atmos' }]]]);
    expect(drift.missing).toEqual([]);
    expect(drift.unmanaged.filter((c) => c.entityType === 'customFormat')).toEqual([]);
    await apply(planned, target, ledger);
    expect(target.emulator.state.customFormats.find((f) => f.id === atmosId)!.name).toBe('Atmos');
  });

  it('a missing ledger is rebuilt by name and reported; a stale entry too; nothing is written', async () => {
    const rebuilt = await plan(sampleDatabase(), target, []);
    expect(pending(rebuilt)).toEqual([]);
    expect(rebuilt.identity).toEqual({ rebuilt: ledger.length, renamed: 0, stale: 0 });
    expect(rebuilt.plan.steps).toEqual([]);
    expect(rebuilt.plan.bindings!.map((b) => [b.identity, b.appId]).sort()).toEqual(ledger.map((e) => [e.identity, e.appId]).sort());
    const stale = ledger.map((e) => (e.appId === atmosId ? { ...e, appId: 99999 } : e));
    expect((await plan(sampleDatabase(), target, stale)).identity).toEqual({ rebuilt: 1, renamed: 0, stale: 1 });
  });

  it('says why an entity is unmanaged: created by arrgo and no longer selected, or not managed', async () => {
    target.emulator.state.customFormats.push({ ...structuredClone(target.emulator.state.customFormats[0]), id: 500, name: 'Mine' });
    const planned = await plan(renamed(`DELETE FROM custom_formats WHERE name = 'Atmos'`), target, ledger);
    const unmanaged = classifyDrift(planned.preview).unmanaged;
    expect(unmanaged.find((c) => c.remoteId === atmosId)).toMatchObject({ unmanagedReason: 'noLongerSelected', reason: expect.stringContaining('no longer includes') });
    expect(unmanaged.find((c) => c.remoteId === 500)).toMatchObject({ unmanagedReason: 'notManaged' });
  });

  it('a namespace change renames the bound entities in place', async () => {
    const planned = await plan(sampleDatabase(), target, ledger, { ...selection, namespace: 'ns' });
    const changes = [...planned.preview.qualityProfiles!.customFormats, ...planned.preview.qualityProfiles!.qualityProfiles].filter((c) => c.category !== 'unmanaged');
    expect(changes.length).toBe(ledger.length);
    for (const c of changes) {
      expect(c.action).toBe('update');
      expect(c.fields[0]).toEqual({ field: 'name', type: 'changed', current: c.name, desired: `${c.name} [ns]` });
    }
  });

  it('a newcomer taking a renamed format\'s old name is created; the renamed one keeps the id', async () => {
    const db = renamed(
      `UPDATE custom_formats SET name = 'Atmos (DD+)' WHERE name = 'Atmos'`,
      `INSERT INTO custom_formats (name, description, include_in_rename) VALUES ('Atmos', NULL, 0)`,
      `INSERT INTO custom_format_conditions (custom_format_name, name, type, arr_type, negate, required) SELECT 'Atmos', name, type, arr_type, negate, required FROM custom_format_conditions WHERE custom_format_name = 'Atmos (DD+)'`,
      `INSERT INTO condition_patterns (custom_format_name, condition_name, regular_expression_name) SELECT 'Atmos', condition_name, regular_expression_name FROM condition_patterns WHERE custom_format_name = 'Atmos (DD+)'`,
      `INSERT INTO quality_profile_custom_formats (quality_profile_name, custom_format_name, arr_type, score) VALUES ('Movies 1080p', 'Atmos', 'all', 5)`,
    );
    const planned = await plan(db, target, ledger);
    const changes = planned.preview.qualityProfiles!.customFormats;
    expect(changes.find((c) => c.name === 'Atmos (DD+)')).toMatchObject({ action: 'update', remoteId: atmosId });
    expect(changes.find((c) => c.name === 'Atmos')).toMatchObject({ action: 'create', remoteId: null });
  });
});

describe('executor by bound id', () => {
  let target: AppUnderTest;
  afterEach(() => target.emulator.close());

  it('PUTs the bound id (a retried rename is idempotent), falls back to the name, then creates', async () => {
    target = await startApp('radarr');
    await applyPlan((await plan(sampleDatabase(), target)).plan, target.client);
    const atmos = target.emulator.state.customFormats.find((f) => f.name === 'Atmos')!;
    const rename = (await plan(renamed(`UPDATE custom_formats SET name = 'Atmos (DD+)' WHERE name = 'Atmos'`), target, [
      { entityType: 'customFormat', appId: atmos.id, identity: `${DATABASE_ID}:Atmos`, name: 'Atmos', createdByArrgo: true },
    ])).plan;
    const first = await applyPlan(rename, target.client);
    const again = await applyPlan(rename, target.client, { verifyFirst: true, startAt: 0 });
    expect([first[0].remoteId, again[0].remoteId]).toEqual([atmos.id, atmos.id]);
    expect(again[0].outcome).toBe('updated');
    expect(target.emulator.state.customFormats.filter((f) => f.name.startsWith('Atmos')).map((f) => [f.id, f.name])).toEqual([[atmos.id, 'Atmos (DD+)']]);

    // The bound id is gone: the entity with the name is updated; with neither, one is created.
    const step = { ...rename.steps[0], remoteId: 99999 };
    expect((await applyPlan({ ...rename, steps: [step] }, target.client))[0]).toMatchObject({ outcome: 'updated', remoteId: atmos.id });
    target.emulator.state.customFormats = target.emulator.state.customFormats.filter((f) => f.id !== atmos.id);
    const created = (await applyPlan({ ...rename, steps: [step] }, target.client))[0];
    expect(created.outcome).toBe('created');
    expect(created.remoteId).not.toBe(atmos.id);
  });
});
