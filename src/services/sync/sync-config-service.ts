import type { EntityManager } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import { entityExists, profileCompatibility, type PortableType } from '../../domain/pcd';
import { emptySelection, syncSelectionSchema, type SyncSelection } from '../../domain/sync';
import { notFound, validationError } from '../../errors';
import { Instance, InstanceSyncConfig, PcdDatabase } from '../../persistence/entities';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { loadInstance } from '../instances/instance-service';

export interface SyncConfigInput extends Partial<SyncSelection> {
  databaseId: number;
}

export interface SyncConfigView extends SyncSelection {
  instanceId: number;
  databaseId: number;
  updatedAt: string;
}

const PER_APP_TYPES: Record<ArrType, { naming: PortableType; mediaSettings: PortableType; qualityDefinitions: PortableType }> = {
  movie_app: { naming: 'movie_app_naming', mediaSettings: 'movie_app_media_settings', qualityDefinitions: 'movie_app_quality_definitions' },
  series_app: { naming: 'series_app_naming', mediaSettings: 'series_app_media_settings', qualityDefinitions: 'series_app_quality_definitions' },
  music_app: { naming: 'music_app_naming', mediaSettings: 'music_app_media_settings', qualityDefinitions: 'music_app_quality_definitions' },
};

/**
 * Which database feeds an instance and what it syncs. Names are checked against the database's
 * resolved state when it is saved, so a preview never starts from a selection that cannot resolve.
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
    return toView(config);
  }

  async find(instanceId: number): Promise<{ databaseId: number; selection: SyncSelection } | null> {
    return (await this.findMany([instanceId])).get(instanceId) ?? null;
  }

  /** The configurations of several instances in one query (instances without one are absent). */
  async findMany(instanceIds: readonly number[]): Promise<Map<number, { databaseId: number; selection: SyncSelection }>> {
    const configs = instanceIds.length ? await this.em.find(InstanceSyncConfig, { instanceId: { $in: [...instanceIds] } }) : [];
    return new Map(configs.map((config) => [config.instanceId, { databaseId: config.databaseId, selection: parseStoredSelection(config.selection) }]));
  }

  async put(instanceId: number, input: SyncConfigInput): Promise<SyncConfigView> {
    const instance = await this.instance(instanceId);
    const { databaseId, ...rest } = input;
    const parsed = syncSelectionSchema.safeParse({ ...emptySelection(), ...rest });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw validationError(`Invalid request: body.${issue.path.join('.')} ${issue.message}`);
    }
    const selection = parsed.data;
    if (!(await this.em.count(PcdDatabase, { id: databaseId }))) throw validationError(`Invalid request: body.databaseId database ${databaseId} not found`);
    if (selection.metadataProfile !== null && instance.arrType !== 'music_app') {
      throw validationError('Invalid request: body.metadataProfile applies to music_app instances only');
    }
    const cache = await this.caches.get(databaseId);
    const db = cache.resolved;
    const compatibility = new Map(profileCompatibility(db).map((p) => [p.name, p.compatibleArrTypes]));
    selection.qualityProfiles.forEach((name, i) => {
      if (!entityExists(db, 'quality_profile', name)) throw validationError(`Invalid request: body.qualityProfiles.${i} quality profile "${name}" not found in database ${databaseId}`);
      if (!(compatibility.get(name) ?? []).includes(instance.arrType)) {
        throw validationError(`Invalid request: body.qualityProfiles.${i} quality profile "${name}" is not compatible with ${instance.arrType} (an enabled quality has no ${instance.arrType} equivalent)`);
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
      if (name !== null && !entityExists(db, type, name)) throw validationError(`Invalid request: body.${field} ${type} "${name}" not found in database ${databaseId}`);
    }
    let config = await this.em.findOne(InstanceSyncConfig, { instanceId });
    if (!config) {
      config = this.em.create(InstanceSyncConfig, { instanceId, databaseId, selection: { ...selection }, updatedAt: new Date() });
    } else {
      config.databaseId = databaseId;
      config.selection = { ...selection };
      config.updatedAt = new Date();
    }
    await this.em.flush();
    return toView(config);
  }

  async delete(instanceId: number): Promise<void> {
    await this.instance(instanceId);
    const config = await this.em.findOne(InstanceSyncConfig, { instanceId });
    if (!config) throw notFound(`Instance ${instanceId} has no sync configuration`);
    await this.em.remove(config).flush();
  }

  private async instance(id: number): Promise<Instance> {
    return loadInstance(this.em, id);
  }
}

/** A stored selection, completed with the defaults of fields added since it was stored. */
export function parseStoredSelection(value: Record<string, unknown>): SyncSelection {
  return syncSelectionSchema.parse({ ...emptySelection(), ...value });
}

function toView(config: InstanceSyncConfig): SyncConfigView {
  return { instanceId: config.instanceId, databaseId: config.databaseId, ...parseStoredSelection(config.selection), updatedAt: config.updatedAt.toISOString() };
}
