/**
 * Identity that survives renames, through the real API, worker, Temporal and both databases
 * against an emulated Radarr: a custom format renamed in the user layer or by a pulled base op,
 * and a quality profile renamed, are each one update of the same app id (scores intact, nothing
 * created or deleted); a hand rename on the app is drift on `name` and a sync restores it; a lost
 * ledger is rebuilt by name, reported, and written without writing anything to the app; what arrgo
 * created and no longer selects is unmanaged as noLongerSelected, what the user made is notManaged.
 */
import type { DbKind } from '../helpers/databases';
import { postgresAvailable } from '../helpers/databases';
import { addInstance, previewUntil, type FleetInstance } from '../helpers/fleet';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { describeWithShared, sharedPath } from '../helpers/shared-data';
import { SyncLedgerEntry } from '../../src/persistence/entities';
import { UNMANAGED_REASON_TEXT } from '../../src/domain/sync';

type Change = { entityType: string; name: string; action: string; remoteId: number | null; fields: { field: string; current: unknown; desired: unknown }[]; category?: string };

const ENGINES: DbKind[] = postgresAvailable() ? ['sqlite', 'postgresql'] : ['sqlite'];

describeWithShared(['data', 'pcd', 'trash-pcd'], 'identity that survives renames (trash-pcd, emulated Radarr)', () => {
  describe.each(ENGINES)('on %s', (db) => {
    let h: Harness;
    let repo: TestGitRepo;
    let databaseId: number;
    let radarr: FleetInstance;
    let profile: string;

    const ledgerRows = () => h.service.orm.em.fork().find(SyncLedgerEntry, { instanceId: radarr.id }, { orderBy: { id: 'asc' } });
    const appWrites = () => ['customformat', 'qualityprofile'].flatMap((kind) => ['POST', 'PUT', 'DELETE'].map((m) => radarr.emulator.writes.count(kind as never, m as never)));
    const snapshot = () => ({
      formats: radarr.emulator.state.customFormats.map((f) => [f.id, f.name]),
      profiles: radarr.emulator.state.qualityProfiles.map((p) => [p.id, p.name]),
      // Every profile's scores by format id.
      scores: radarr.emulator.state.qualityProfiles.map((p) => [p.id, p.formatItems.filter((i) => i.score !== 0).map((i) => [i.format, i.score]).sort()]),
    });
    const preview = async () => {
      const created = await h.post('/sync/previews', { instanceId: radarr.id });
      expect(created.status).toBe(202);
      return (await previewUntil(h, created.body.id, ['ready', 'failed'])).body;
    };
    const apply = async (previewId: number) => {
      const applied = await h.post(`/sync/previews/${previewId}/apply?wait=true`);
      expect(applied.body).toMatchObject({ status: 'applied', failure: null });
      return applied.body;
    };
    const pending = (body: { qualityProfiles: { customFormats: Change[]; qualityProfiles: Change[] } }) =>
      [...body.qualityProfiles.customFormats, ...body.qualityProfiles.qualityProfiles].filter((c) => c.action !== 'unchanged');
    const scoredFormat = (exclude: string[] = []) => {
      const p = radarr.emulator.state.qualityProfiles.find((q) => q.name === profile)!;
      const item = p.formatItems.find((i) => i.score !== 0 && !exclude.includes(radarr.emulator.state.customFormats.find((f) => f.id === i.format)!.name))!;
      return radarr.emulator.state.customFormats.find((f) => f.id === item.format)!;
    };

    beforeAll(async () => {
      h = await startArrgo({ db });
      repo = makeGitRepo(sharedPath('data', 'pcd', 'trash-pcd'));
      const linked = await h.post('/databases', { name: 'trash', source: { kind: 'git', url: repo.url, branch: 'main' } });
      databaseId = linked.body.id;
      await eventually(() => h.get(`/databases/${databaseId}`), (r) => r.body.cache.status === 'ready', 120_000);
      const parity = await h.get(`/compatibility/parity?databaseId=${databaseId}`);
      profile = parity.body.profiles.find((p: { compatibleArrTypes: string[] }) => p.compatibleArrTypes.includes('movie_app')).name;
      radarr = await addInstance(h, 'movie_app', { name: `identity ${db}`, databaseId, config: { databaseId, qualityProfiles: [profile] } });
      const synced = await h.post(`/instances/${radarr.id}/sync?wait=true`, {});
      expect(synced.body).toMatchObject({ status: 'applied', failure: null, identity: { rebuilt: 0, renamed: 0, stale: 0 } });
    }, 240_000);
    afterAll(async () => {
      await h?.close();
      await radarr?.emulator.close();
      repo?.remove();
    });

    it('binds every managed format and profile in the ledger, as created by arrgo', async () => {
      const rows = await ledgerRows();
      const formats = radarr.emulator.state.customFormats;
      expect(rows.filter((r) => r.entityType === 'customFormat').length).toBe(formats.length);
      for (const row of rows.filter((r) => r.entityType === 'customFormat')) {
        expect(formats.find((f) => f.id === row.appId)!.name).toBe(row.name);
        expect([row.identity, row.databaseId, row.createdByArrgo]).toEqual([`${databaseId}:${row.name}`, databaseId, true]);
      }
      expect(rows.filter((r) => r.entityType === 'qualityProfile').map((r) => r.name)).toEqual([profile]);
    });

    it('what arrgo created and no longer selects is unmanaged as noLongerSelected; a format made by hand is notManaged', async () => {
      const parity = await h.get(`/compatibility/parity?databaseId=${databaseId}`);
      const other = parity.body.profiles.find((p: { name: string; compatibleArrTypes: string[] }) => p.compatibleArrTypes.includes('movie_app') && p.name !== profile).name;
      const app = (path: string, method: string, body?: unknown) =>
        fetch(`${radarr.emulator.baseUrl}${radarr.emulator.apiBase}${path}`, { method, headers: { 'X-Api-Key': radarr.emulator.apiKey, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const byHand = (await (await app('/customformat', 'POST', { name: 'Made by hand', includeCustomFormatWhenRenaming: false, specifications: [{ name: 'x265', implementation: 'ReleaseTitleSpecification', negate: false, required: false, fields: [{ name: 'value', value: 'x265' }] }] })).json()) as { id: number };
      try {
        expect((await h.put(`/instances/${radarr.id}/sync-config`, { databaseId, qualityProfiles: [other] })).status).toBe(200);
        const body = await preview();
        const unmanaged = [...body.qualityProfiles.customFormats, ...body.qualityProfiles.qualityProfiles].filter((c: Change) => c.category === 'unmanaged');
        const reasonOf = (entityType: string, name: string) => unmanaged.find((c: Change & { unmanagedReason?: string }) => c.entityType === entityType && c.name === name) as (Change & { unmanagedReason?: string; reason?: string }) | undefined;
        expect(reasonOf('qualityProfile', profile)).toMatchObject({ action: 'unchanged', unmanagedReason: 'noLongerSelected' });
        expect(reasonOf('qualityProfile', profile)!.reason).toBe(UNMANAGED_REASON_TEXT.noLongerSelected);
        expect(reasonOf('customFormat', 'Made by hand')).toMatchObject({ action: 'unchanged', remoteId: byHand.id, unmanagedReason: 'notManaged' });
        // Every unmanaged format is one or the other, by what the ledger says arrgo created.
        const created = new Set((await ledgerRows()).filter((r) => r.entityType === 'customFormat' && r.createdByArrgo).map((r) => r.appId));
        for (const c of unmanaged.filter((u: Change) => u.entityType === 'customFormat') as (Change & { unmanagedReason?: string })[]) {
          expect([c.name, c.unmanagedReason]).toEqual([c.name, created.has(c.remoteId!) ? 'noLongerSelected' : 'notManaged']);
        }
      } finally {
        expect((await h.put(`/instances/${radarr.id}/sync-config`, { databaseId, qualityProfiles: [profile] })).status).toBe(200);
        expect((await app(`/customformat/${byHand.id}`, 'DELETE')).status).toBeLessThan(300);
      }
    });

    it('a custom format renamed in the user layer is one update of the same id, scores intact, nothing created or deleted', async () => {
      const format = scoredFormat();
      const renamed = `${format.name} (renamed)`;
      const entity = await h.get(`/pcd/${databaseId}/entities/custom_format/${encodeURIComponent(format.name)}`);
      const edit = await h.patch(`/pcd/${databaseId}/entities/custom_format/${encodeURIComponent(format.name)}`, { data: { ...entity.body.entity, name: renamed } });
      expect(edit.status).toBe(200);
      const before = snapshot();
      const writes = appWrites();

      const body = await preview();
      expect(body.counts).toMatchObject({ create: 0, update: 1, delete: 0 });
      expect(pending(body)).toEqual([
        { entityType: 'customFormat', name: renamed, action: 'update', remoteId: format.id, databaseId, fields: [{ field: 'name', type: 'changed', current: format.name, desired: renamed }] },
      ]);
      expect(body.identity).toEqual({ rebuilt: 0, renamed: 1, stale: 0 });
      await apply(body.id);

      const after = snapshot();
      expect(after.formats).toEqual(before.formats.map(([id, name]) => [id, id === format.id ? renamed : name]));
      expect(after.profiles).toEqual(before.profiles);
      expect(after.scores).toEqual(before.scores);
      expect(appWrites()).toEqual([writes[0], writes[1] + 1, writes[2], writes[3], writes[4], writes[5]]);
      expect((await ledgerRows()).find((r) => r.appId === format.id && r.entityType === 'customFormat')).toMatchObject({ identity: `${databaseId}:${format.name}`, name: renamed });
      expect(pending(await preview())).toEqual([]);
    });

    it('a rename that arrives by a pull is one update of the same id too', async () => {
      const format = scoredFormat(radarr.emulator.state.customFormats.filter((f) => f.name.endsWith('(renamed)')).map((f) => f.name));
      const renamed = `${format.name} v2`;
      repo.commit({ 'ops/9000.rename-a-format.sql': `UPDATE custom_formats SET name = '${renamed.replace(/'/g, "''")}' WHERE name = '${format.name.replace(/'/g, "''")}';\n` });
      const pulled = await h.post(`/databases/${databaseId}/pull?wait=true`);
      expect(pulled.body).toMatchObject({ status: 'ready' });
      const before = snapshot();
      const writes = appWrites();

      const body = await preview();
      expect(pending(body)).toEqual([
        { entityType: 'customFormat', name: renamed, action: 'update', remoteId: format.id, databaseId, fields: [{ field: 'name', type: 'changed', current: format.name, desired: renamed }] },
      ]);
      await apply(body.id);
      const after = snapshot();
      expect(after.formats).toEqual(before.formats.map(([id, name]) => [id, id === format.id ? renamed : name]));
      expect(after.scores).toEqual(before.scores);
      expect(appWrites()).toEqual([writes[0], writes[1] + 1, writes[2], writes[3], writes[4], writes[5]]);
    });

    it('a quality profile renamed keeps its id, and the selection follows the rename', async () => {
      const live = radarr.emulator.state.qualityProfiles.find((p) => p.name === profile)!;
      const renamed = `${profile} (mine)`;
      const entity = await h.get(`/pcd/${databaseId}/entities/quality_profile/${encodeURIComponent(profile)}`);
      expect((await h.patch(`/pcd/${databaseId}/entities/quality_profile/${encodeURIComponent(profile)}`, { data: { ...entity.body.entity, name: renamed } })).status).toBe(200);
      // The sync configuration still names the profile as it was selected: it is found by its identity.
      expect((await h.get(`/instances/${radarr.id}/sync-config`)).body.qualityProfiles).toEqual([profile]);
      const before = snapshot();
      const writes = appWrites();

      const body = await preview();
      expect(pending(body)).toEqual([
        { entityType: 'qualityProfile', name: renamed, action: 'update', remoteId: live.id, databaseId, fields: [{ field: 'name', type: 'changed', current: profile, desired: renamed }] },
      ]);
      await apply(body.id);
      const after = snapshot();
      expect(after.profiles).toEqual(before.profiles.map(([id, name]) => [id, id === live.id ? renamed : name]));
      expect(after.formats).toEqual(before.formats);
      expect(after.scores).toEqual(before.scores);
      expect(appWrites()).toEqual([writes[0], writes[1], writes[2], writes[3], writes[4] + 1, writes[5]]);
      // Selected again under its new name: the same profile, nothing to change.
      expect((await h.put(`/instances/${radarr.id}/sync-config`, { databaseId, qualityProfiles: [renamed] })).status).toBe(200);
      expect(pending(await preview())).toEqual([]);
      profile = renamed;
    });

    it('a format renamed by hand on the app is drift on name, and a sync restores it', async () => {
      const format = radarr.emulator.state.customFormats[0];
      const name = format.name;
      format.name = 'Renamed by hand';
      const drift = await h.post(`/drift/${radarr.id}/check`);
      expect(drift.status).toBe(200);
      expect(drift.body.status).toBe('drifted');
      expect(drift.body.drift).toEqual([expect.objectContaining({ entityType: 'customFormat', name, remoteId: format.id, fields: [{ field: 'name', type: 'changed', current: 'Renamed by hand', desired: name }] })]);
      expect(drift.body.missing).toEqual([]);

      const synced = await h.post(`/instances/${radarr.id}/sync?wait=true`, {});
      expect(synced.body).toMatchObject({ status: 'applied', counts: { create: 0, update: 1, delete: 0 } });
      expect(radarr.emulator.state.customFormats.find((f) => f.id === format.id)!.name).toBe(name);
    });

    it('a stale ledger (the app restored from a backup: other ids) is rebuilt by name and reported', async () => {
      const rows = await ledgerRows();
      const key = (r: SyncLedgerEntry) => [r.entityType, r.appId, r.identity, r.name];
      const em = h.service.orm.em.fork();
      for (const row of await em.find(SyncLedgerEntry, { instanceId: radarr.id })) row.appId += 100_000;
      await em.flush();
      const writes = appWrites();
      const body = await preview();
      expect(body.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
      expect(body.identity).toEqual({ rebuilt: rows.length, renamed: 0, stale: rows.length });
      await apply(body.id);
      // The identities are bound to the app's ids again; the stale rows are gone.
      expect((await ledgerRows()).map(key).sort()).toEqual(rows.map(key).sort());
      expect(appWrites()).toEqual(writes);
    });

    it('a lost ledger is rebuilt by name at the next sync, reported, and nothing is written twice', async () => {
      const rows = await ledgerRows();
      await h.service.orm.em.fork().nativeDelete(SyncLedgerEntry, { instanceId: radarr.id });
      const before = snapshot();
      const writes = appWrites();

      const body = await preview();
      expect(body.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
      expect(body.identity).toEqual({ rebuilt: rows.length, renamed: 0, stale: 0 });
      await apply(body.id);
      const rebuilt = await ledgerRows();
      const key = (r: SyncLedgerEntry) => [r.entityType, r.appId, r.identity, r.name];
      expect(rebuilt.map(key).sort()).toEqual(rows.map(key).sort());
      // Found by name, so not known to be arrgo's creation any more.
      expect(rebuilt.every((r) => !r.createdByArrgo)).toBe(true);
      expect(snapshot()).toEqual(before);
      expect(appWrites()).toEqual(writes);

      // The next sync finds everything bound: nothing to rebuild, nothing written.
      const next = await preview();
      expect(next.identity).toEqual({ rebuilt: 0, renamed: 0, stale: 0 });
      await apply(next.id);
      expect((await ledgerRows()).map((r) => [r.id, ...key(r)])).toEqual(rebuilt.map((r) => [r.id, ...key(r)]));
      expect(appWrites()).toEqual(writes);
    });

    it('deleting the instance removes its ledger', async () => {
      expect((await h.del(`/instances/${radarr.id}`)).status).toBe(204);
      expect(await ledgerRows()).toEqual([]);
    });
  });
});
