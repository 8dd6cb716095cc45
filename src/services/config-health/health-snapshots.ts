import type { EntityManager } from '@mikro-orm/core';
import { recordEvidence, scoreInstance, type HealthResult } from '../../domain/health';
import { conflict, notFound, rateLimited, validationError } from '../../errors';
import { HealthSnapshot, Instance, InstanceSyncConfig } from '../../persistence/entities';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { SharedRateLimit } from '../shared-rate-limit';
import { assembleHealthInput } from './health-input';
import { loadInstance } from '../instances/instance-service';

export type SnapshotTrigger = 'scheduled' | 'recompute';

/** The one scoring-and-snapshot path: scheduled runs and recomputes both come through here. */
export async function computeAndStoreHealth(
  em: EntityManager,
  caches: PcdCacheManager,
  instance: Instance,
  trigger: SnapshotTrigger,
  now = new Date(),
  /** Runs in the transaction that stores the snapshot (the events it raises). */
  stored?: (tx: EntityManager, result: HealthResult) => Promise<void>,
): Promise<HealthResult> {
  const input = await assembleHealthInput(em, caches, instance, now);
  const result = scoreInstance(input);
  const evidence = recordEvidence(result);
  await em.transactional(async (tx) => {
    tx.create(HealthSnapshot, {
      instanceId: instance.id,
      generatedAt: new Date(result.generatedAt),
      engineVersion: result.engineVersion,
      trigger,
      band: result.overall.band,
      score: result.overall.band === 'unknown' ? null : result.overall.score,
      result: evidence.result as unknown as Record<string, unknown> | null,
      evidenceRecorded: evidence.evidenceRecorded,
    });
    await tx.flush();
    await stored?.(tx, result);
  });
  return result;
}

/**
 * On-demand recompute: one computation in flight per instance in this process (a second is 409),
 * and at most one per instance per `minIntervalMs` across all API processes (429 with Retry-After;
 * counted in the database, a failed computation gives its hit back).
 */
export class HealthRecomputer {
  private readonly inFlight = new Set<number>();
  private readonly limit: SharedRateLimit | null;

  constructor(
    private readonly caches: PcdCacheManager,
    minIntervalMs: number,
  ) {
    this.limit = minIntervalMs > 0 ? new SharedRateLimit({ name: 'health-recompute', limit: 1, windowMs: minIntervalMs }) : null;
  }

  async recompute(em: EntityManager, instanceId: number): Promise<HealthResult> {
    // Claimed before any await, so a concurrent request for the same instance always sees it.
    if (this.inFlight.has(instanceId)) throw conflict(`A health recompute of instance ${instanceId} is already in progress`);
    this.inFlight.add(instanceId);
    try {
      // Let other requests in before the work starts (with SQLite every query is synchronous).
      await new Promise((resolve) => setImmediate(resolve));
      const instance = await loadInstance(em, instanceId);
      if (!instance.enabled) throw validationError(`Invalid request: params.instanceId instance ${instanceId} is disabled`);
      if (!(await em.count(InstanceSyncConfig, { instanceId }))) throw notFound(`Instance ${instanceId} is not sync-capable: it has no sync configuration`);
      const taken = await this.limit?.take(em, String(instanceId));
      if (taken && !taken.hit) throw rateLimited(`Health of instance ${instanceId} was recomputed moments ago; try again in ${taken.wait} s`, taken.wait);
      try {
        return await computeAndStoreHealth(em, this.caches, instance, 'recompute');
      } catch (error) {
        if (taken?.hit) await this.limit!.giveBack(em, taken.hit);
        throw error;
      }
    } finally {
      this.inFlight.delete(instanceId);
    }
  }
}
