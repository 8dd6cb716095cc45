import { unwrap, type ArrgoClient } from '../../client';
import { CliError } from '../errors';
import { resolveSecrets, type Change, type FleetConfiguration } from './plan';

const DATABASE_READY_WAIT_MS = 180_000;

/** Sends a plan's changes in order; ids of resources created earlier in the run are looked up by name. */
export async function applyChanges(client: ArrgoClient, current: FleetConfiguration, changes: Change[], env: NodeJS.ProcessEnv, onApplied: (change: Change) => void): Promise<void> {
  const ids = {
    database: new Map(current.databases.map((d) => [d.name, d.id])),
    refGuideSource: new Map(current.refGuideSources.map((s) => [s.name, s.id])),
    instance: new Map(current.instances.map((i) => [i.name, i.id])),
    channel: new Map(current.channels.map((c) => [c.name, c.id])),
  };
  const idOf = (kind: keyof typeof ids, name: string): number => {
    const id = ids[kind].get(name);
    if (id === undefined) throw new CliError(`No ${kind} named ${JSON.stringify(name)} in arrgo`);
    return id;
  };
  const databaseIds = (names: unknown) => (names as string[]).map((n) => idOf('database', n));
  const created = new Set<number>();

  for (const change of changes) {
    const request = change.request;
    switch (request.call) {
      case 'createDatabase': {
        const database = await unwrap(client.POST('/api/v1/databases', { body: (await resolveSecrets(request.body!, env)) as never }));
        ids.database.set(database.name, database.id);
        created.add(database.id);
        break;
      }
      case 'updateDatabase': {
        const id = idOf('database', request.name);
        await unwrap(client.PATCH('/api/v1/databases/{id}', { params: { path: { id } }, body: (await resolveSecrets(request.body!, env)) as never }));
        if ('branch' in request.body! || 'token' in request.body!) {
          await unwrap(client.POST('/api/v1/databases/{id}/pull', { params: { path: { id } } }));
          created.add(id);
        }
        break;
      }
      case 'deleteDatabase':
        await unwrap(client.DELETE('/api/v1/databases/{id}', { params: { path: { id: idOf('database', request.name) } } }));
        break;
      case 'createRefGuideSource': {
        const { databases, ...body } = request.body!;
        const source = await unwrap(client.POST('/api/v1/ref-guide/sources', { body: { ...(await resolveSecrets(body, env)), databaseIds: databaseIds(databases) } as never }));
        ids.refGuideSource.set(source.name, source.id);
        break;
      }
      case 'updateRefGuideSource': {
        const { databases, ...body } = request.body!;
        const patch = { ...(await resolveSecrets(body, env)), ...(databases ? { databaseIds: databaseIds(databases) } : {}) };
        await unwrap(client.PATCH('/api/v1/ref-guide/sources/{id}', { params: { path: { id: idOf('refGuideSource', request.name) } }, body: patch as never }));
        break;
      }
      case 'deleteRefGuideSource':
        await unwrap(client.DELETE('/api/v1/ref-guide/sources/{id}', { params: { path: { id: idOf('refGuideSource', request.name) } } }));
        break;
      case 'createInstance': {
        const instance = await unwrap(client.POST('/api/v1/instances', { body: (await resolveSecrets(request.body!, env)) as never }));
        ids.instance.set(instance.name, instance.id);
        break;
      }
      case 'updateInstance':
        await unwrap(client.PATCH('/api/v1/instances/{id}', { params: { path: { id: idOf('instance', request.name) } }, body: (await resolveSecrets(request.body!, env)) as never }));
        break;
      case 'deleteInstance':
        await unwrap(client.DELETE('/api/v1/instances/{id}', { params: { path: { id: idOf('instance', request.name) } } }));
        break;
      case 'putSyncConfig': {
        const entries = request.entries!;
        const databases = entries.map(({ database, ...selection }) => ({ databaseId: idOf('database', database), selection }));
        for (const { databaseId } of databases) if (created.has(databaseId)) await waitForDatabase(client, databaseId, created);
        await unwrap(client.PUT('/api/v1/instances/{id}/sync-config', { params: { path: { id: idOf('instance', request.name) } }, body: { databases } }));
        break;
      }
      case 'deleteSyncConfig':
        await unwrap(client.DELETE('/api/v1/instances/{id}/sync-config', { params: { path: { id: idOf('instance', request.name) } } }));
        break;
      case 'createChannel': {
        const channel = await unwrap(client.POST('/api/v1/notifications/channels', { body: (await resolveSecrets(request.body!, env)) as never }));
        ids.channel.set(channel.name, channel.id);
        break;
      }
      case 'updateChannel':
        await unwrap(client.PATCH('/api/v1/notifications/channels/{id}', { params: { path: { id: idOf('channel', request.name) } }, body: (await resolveSecrets(request.body!, env)) as never }));
        break;
      case 'deleteChannel':
        await unwrap(client.DELETE('/api/v1/notifications/channels/{id}', { params: { path: { id: idOf('channel', request.name) } } }));
        break;
      case 'putSetting':
        await putSetting(client, request.name, request.body);
        break;
    }
    onApplied(change);
  }
}

async function putSetting(client: ArrgoClient, name: string, body: Record<string, unknown>): Promise<void> {
  if (name === 'driftPolling') await unwrap(client.PUT('/api/v1/drift/settings', { body: body as never }));
  else if (name === 'refGuideRefresh') await unwrap(client.PUT('/api/v1/ref-guide/settings', { body: body as never }));
  else if (name === 'syncHistoryRetention') await unwrap(client.PATCH('/api/v1/sync-history/settings', { body: body as never }));
  else await unwrap(client.PATCH('/api/v1/snapshots/settings', { body: body as never }));
}

/** A sync configuration names entities of the database's resolved state: a database linked (or re-pulled) by this apply must have finished its pull. */
async function waitForDatabase(client: ArrgoClient, id: number, pending: Set<number>): Promise<void> {
  const deadline = Date.now() + DATABASE_READY_WAIT_MS;
  for (;;) {
    const database = await unwrap(client.GET('/api/v1/databases/{id}', { params: { path: { id } } }));
    if (database.cache.status === 'ready' || database.cache.status === 'degraded') return void pending.delete(id);
    if (database.cache.status === 'failed') throw new CliError(`The database ${database.name} failed its pull (${database.cache.reason ?? 'unknown reason'}); its sync configurations were not set`);
    if (Date.now() > deadline) throw new CliError(`The database ${database.name} was still pulling after ${DATABASE_READY_WAIT_MS / 1000} s; run apply again once it is ready`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
