import { RESOLVED_ENTITY_TYPES } from '../../src/domain/pcd';
import { eventually, type Harness } from './harness';

const PER_APP = new Set(['naming', 'mediaSettings', 'qualityDefinitions']);

/** The full resolved list of every entity type (per app family where the type is per app), through the API. */
export async function resolvedState(h: Harness, databaseId: number): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const type of RESOLVED_ENTITY_TYPES) {
    for (const arrType of PER_APP.has(type) ? ['movie_app', 'series_app', 'music_app'] : [null]) {
      // A process that did not run the pull or rollback rebuilds its cache first (503 meanwhile).
      const r = await eventually(() => h.get(`/pcd/${databaseId}/resolved/${type}${arrType ? `?arrType=${arrType}` : ''}`), (x) => x.status !== 503, 120_000);
      if (r.status !== 200) throw new Error(`resolved ${type}: ${r.status} ${r.text}`);
      state[`${type}${arrType ? `:${arrType}` : ''}`] = r.body.entities.map((e: { name: string; entity: unknown; exists: boolean; conflict: boolean }) => ({
        name: e.name,
        entity: e.entity,
        exists: e.exists,
        conflict: e.conflict,
      }));
    }
  }
  return state;
}
