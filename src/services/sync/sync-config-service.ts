import type { EntityManager } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import { entityExists, profileCompatibility, type PortableType } from '../../domain/pcd';
import { effectiveSelection, emptySelection, MAX_SYNC_DATABASES, syncSelectionSchema, type SyncSelection } from '../../domain/sync';
import { notFound, validationError } from '../../errors';
import { Instance, InstanceSyncConfig, InstanceSyncDatabase, PcdDatabase } from '../../persistence/entities';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { loadInstance } from '../instances/instance-service';

/** One database of a configuration and what it syncs. */
export interface SyncDatabaseEntry {
  databaseId: number;
  selection: SyncSelection;
}

/**
 * A configuration as stored: its databases in priority order. The single-database body (a
 * databaseId beside the selection's fields) is the one-element case.
 */
export interface SyncConfigInput extends Partial<SyncSelection> {
  databaseId?: number;
  databases?: { databaseId: number; selection: Partial<SyncSelection> }[];
}

export interface SyncConfigView extends SyncSelection {
  instanceId: number;
  /** The first database and (spread) its selection, as before several databases. */
  databaseId: number;
  databases: SyncDatabaseEntry[];
  updatedAt: string;
}

/** What an instance syncs: its databases in order, the first one's id and the effective selection. */
export interface InstanceSyncTarget {
  databaseId: number;
  /** The effective selection over every database (effectiveSelection). */
  selection: SyncSelection;
  databases: SyncDatabaseEntry[];
}

const PER_APP_TYPES: Record<ArrType, { naming: PortableType; mediaSettings: PortableType; qualityDefinitions: PortableType }> = {
  movie_app: { naming: 'movie_app_naming', mediaSettings: 'movie_app_media_settings', qualityDefinitions: 'movie_app_quality_definitions' },
  series_app: { naming: 'series_app_naming', mediaSettings: 'series_app_media_settings', qualityDefinitions: 'series_app_quality_definitions' },
  music_app: { naming: 'music_app_naming', mediaSettings: 'music_app_media_settings', qualityDefinitions: 'music_app_quality_definitions' },
};

/**
 * Which databases feed an instance, in priority order, and what each syncs. Names are checked
 * against each database's resolved state when it is saved, so a preview never starts from a
 * selection that cannot resolve.
 */
export class SyncConfigService {
  /** The service over the current request's (or activity's) EntityManager. */
  static of(deps: { orm: { em: EntityManager }; pcdCaches: PcdCacheManager }): SyncConfigService {
    return new SyncConfigService(deps.orm.em, deps.pcdCaches);
  }

  constructor(
    private readonly em: EntityManager,
    private readonly caches: PcdCacheManager,
  ) {}

  async get(instanceId: number): Promise<SyncConfigView> {
    await this.instance(instanceId);
    const config = await this.em.findOne(InstanceSyncConfig, { instanceId });
    if (!config) throw notFound(`Instance ${instanceId} has no sync configuration`);
    return toView(config, (await this.findMany([instanceId])).get(instanceId)?.databases ?? []);
  }

  async find(instanceId: number): Promise<InstanceSyncTarget | null> {
    return (await this.findMany([instanceId])).get(instanceId) ?? null;
  }

  /** The configurations of several instances in one query (instances without one are absent). */
  async findMany(instanceIds: readonly number[]): Promise<Map<number, InstanceSyncTarget>> {
    const rows = instanceIds.length ? await this.em.find(InstanceSyncDatabase, { instanceId: { $in: [...instanceIds] } }, { orderBy: { instanceId: 'asc', position: 'asc' } }) : [];
    const entries = new Map<number, SyncDatabaseEntry[]>();
    for (const row of rows) {
      const list = entries.get(row.instanceId) ?? [];
      list.push({ databaseId: row.databaseId, selection: parseStoredSelection(row.selection) });
      entries.set(row.instanceId, list);
    }
    return new Map([...entries].map(([instanceId, databases]) => [instanceId, syncTarget(databases)]));
  }

  async put(instanceId: number, input: SyncConfigInput): Promise<SyncConfigView> {
    const instance = await this.instance(instanceId);
    const entries: SyncDatabaseEntry[] = [];
    for (const [i, entry] of requestedEntries(input).entries()) {
      const prefix = input.databases ? `body.databases.${i}.` : 'body.';
      if (entries.some((e) => e.databaseId === entry.databaseId)) throw validationError(`Invalid request: ${prefix}databaseId database ${entry.databaseId} is listed twice`);
      entries.push({ databaseId: entry.databaseId, selection: await this.checkedSelection(instance, entry, input.databases ? `${prefix}selection.` : prefix, `${prefix}databaseId`) });
    }
    const [first] = entries;
    const config = await this.em.transactional(async (tx) => {
      let row = await tx.findOne(InstanceSyncConfig, { instanceId });
      if (!row) {
        row = tx.create(InstanceSyncConfig, { instanceId, databaseId: first.databaseId, selection: { ...first.selection }, updatedAt: new Date() });
      } else {
        row.databaseId = first.databaseId;
        row.selection = { ...first.selection };
        row.updatedAt = new Date();
      }
      await tx.nativeDelete(InstanceSyncDatabase, { instanceId });
      entries.forEach((entry, position) => tx.create(InstanceSyncDatabase, { instanceId, position, databaseId: entry.databaseId, selection: { ...entry.selection } }));
      return row;
    });
    return toView(config, entries);
  }

  async delete(instanceId: number): Promise<void> {
    await this.instance(instanceId);
    const config = await this.em.findOne(InstanceSyncConfig, { instanceId });
    if (!config) throw notFound(`Instance ${instanceId} has no sync configuration`);
    await this.em.transactional(async (tx) => {
      await tx.nativeDelete(InstanceSyncDatabase, { instanceId });
      await tx.nativeDelete(InstanceSyncConfig, { instanceId });
    });
  }

  /** The entry's selection, every name checked against its database (`prefix`: where its fields sit in the body). */
  private async checkedSelection(instance: Instance, entry: { databaseId: number; selection: Partial<SyncSelection> }, prefix: string, databaseField: string): Promise<SyncSelection> {
    const { databaseId } = entry;
    const parsed = syncSelectionSchema.safeParse({ ...emptySelection(), ...entry.selection });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw validationError(`Invalid request: ${prefix}${issue.path.join('.')} ${issue.message}`);
    }
    const selection = parsed.data;
    if (!(await this.em.count(PcdDatabase, { id: databaseId }))) throw validationError(`Invalid request: ${databaseField} database ${databaseId} not found`);
    if (selection.metadataProfile !== null && instance.arrType !== 'music_app') {
      throw validationError(`Invalid request: ${prefix}metadataProfile applies to music_app instances only`);
    }
    const cache = await this.caches.get(databaseId);
    const db = cache.resolved;
    const compatibility = new Map(profileCompatibility(db).map((p) => [p.name, p.compatibleArrTypes]));
    selection.qualityProfiles.forEach((name, i) => {
      if (!entityExists(db, 'quality_profile', name)) throw validationError(`Invalid request: ${prefix}qualityProfiles.${i} quality profile "${name}" not found in database ${databaseId}`);
      if (!(compatibility.get(name) ?? []).includes(instance.arrType)) {
        throw validationError(`Invalid request: ${prefix}qualityProfiles.${i} quality profile "${name}" is not compatible with ${instance.arrType} (an enabled quality has no ${instance.arrType} equivalent)`);
      }
    });
    const types = PER_APP_TYPES[instance.arrType];
    const checks: [keyof SyncSelection, PortableType][] = [
      ['delayProfile', 'delay_profile'],
      ['naming', types.naming],
      ['mediaSettings', types.mediaSettings],
      ['qualityDefinitions', types.qualityDefinitions],
      ['metadataProfile', 'music_app_metadata_profile'],
    ];
    for (const [field, type] of checks) {
      const name = selection[field] as string | null;
      if (name !== null && !entityExists(db, type, name)) throw validationError(`Invalid request: ${prefix}${field} ${type} "${name}" not found in database ${databaseId}`);
    }
    return selection;
  }

  private async instance(id: number): Promise<Instance> {
    return loadInstance(this.em, id);
  }
}

/** The body's entries: its `databases`, or the single database with the selection beside it. */
function requestedEntries(input: SyncConfigInput): { databaseId: number; selection: Partial<SyncSelection> }[] {
  const { databaseId, databases, ...selection } = input;
  if (databases && databaseId !== undefined) throw validationError('Invalid request: body.databases give either databaseId (with the selection beside it) or databases, not both');
  if (databases && Object.values(selection).some((value) => value !== undefined)) {
    throw validationError('Invalid request: body.databases each database has its own selection: put the selection fields inside its entry');
  }
  if (databases) {
    if (databases.length === 0) throw validationError('Invalid request: body.databases must list at least one database');
    if (databases.length > MAX_SYNC_DATABASES) throw validationError(`Invalid request: body.databases at most ${MAX_SYNC_DATABASES} databases`);
    return databases;
  }
  if (databaseId === undefined) throw validationError('Invalid request: body.databaseId is required (or databases)');
  return [{ databaseId, selection }];
}

/** An instance's target from its entries in order. */
export function syncTarget(databases: SyncDatabaseEntry[]): InstanceSyncTarget {
  return { databaseId: databases[0].databaseId, selection: effectiveSelection(databases.map((d) => d.selection)), databases };
}

/** A stored selection, completed with the defaults of fields added since it was stored. */
export function parseStoredSelection(value: Record<string, unknown>): SyncSelection {
  return syncSelectionSchema.parse({ ...emptySelection(), ...value });
}

function toView(config: InstanceSyncConfig, databases: SyncDatabaseEntry[]): SyncConfigView {
  return { instanceId: config.instanceId, databaseId: config.databaseId, ...parseStoredSelection(config.selection), databases, updatedAt: config.updatedAt.toISOString() };
}
