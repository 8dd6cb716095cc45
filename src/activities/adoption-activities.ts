import { Context } from '@temporalio/activity';
import { createArrClient } from '../clients/arr-client';
import { evidenceForAppFailure, failureEvidence, type FailureEvidence } from '../domain/failure-evidence';
import type { PlannedUserOp } from '../domain/pcd';
import type { SyncSection } from '../domain/sync';
import { adoptionLiveNeeds, planAdoption } from '../domain/sync/adopt';
import { AppError } from '../errors';
import { Adoption, Instance, PcdOp, type AdoptionStatus } from '../persistence/entities';
import { adoptionOpLabel, adoptionPreviewBody, type StoredAdoptionOp } from '../services/adoptions/adoption-view';
import { databaseVersionOf } from '../services/goals/goal-preview';
import { checkAppIdentity } from '../services/instances/app-identity';
import { InstanceService } from '../services/instances/instance-service';
import { UserLayerWriter } from '../services/pcd/user-ops';
import { readLiveState, unreadLiveState } from '../services/sync/live-state';
import { SyncConfigService } from '../services/sync/sync-config-service';
import type { ActivityDeps } from './deps';
import { editEffects } from '../services/drift/drift-after-edit';
import { progressHeartbeat } from './heartbeat';

export interface GeneratedAdoption {
  status: 'ready' | 'failed';
  failure: FailureEvidence | null;
}

export interface AppliedAdoption {
  /** The database moved since the preview: nothing was written. */
  stale: boolean;
  opIds: number[];
}

export function adoptionActivities(deps: ActivityDeps) {
  const em = () => deps.orm.em.fork();
  const writer = new UserLayerWriter(deps.orm, deps.pcdCaches, editEffects(deps));

  /** The ops this adoption already stored (an attempt that stored them and died before recording them). */
  async function storedOps(adoption: Adoption): Promise<number[]> {
    const ops = await em().find(PcdOp, { databaseId: adoption.databaseId, layer: 'user', supersededBy: null, label: { $like: `${adoptionOpLabel(adoption.id)}%` } }, { orderBy: { seq: 'asc' } });
    return ops.map((op) => op.id);
  }

  return {
    /** Reads the instance (identity first) and plans the adoption against the database as it is now. */
    async generateAdoption(adoptionId: number): Promise<GeneratedAdoption> {
      const adoption = await em().findOneOrFail(Adoption, { id: adoptionId });
      const instance = await em().findOne(Instance, { id: adoption.instanceId });
      const fail = async (failure: FailureEvidence): Promise<GeneratedAdoption> => ({ status: 'failed', failure });
      if (!instance) return fail(failureEvidence('internalError'));
      let cache;
      try {
        cache = await deps.pcdCaches.build(adoption.databaseId);
      } catch (error) {
        if (error instanceof AppError) return fail(failureEvidence('internalError'));
        throw error;
      }
      const connection = new InstanceService(deps.orm.em, deps.secretBox).connectionOf(instance);
      const client = createArrClient(connection, deps.config.appRequestTimeoutMs);
      const identity = await checkAppIdentity(client);
      if (identity.status === 'mismatch') {
        deps.logger.info({ instanceId: instance.id, detectedArrType: identity.identity.arrType }, 'adoption refused: the app is of another type');
        return fail(identity.evidence);
      }
      const sections = adoption.sections as SyncSection[];
      const needs = adoptionLiveNeeds(adoption.arrType, sections);
      const { live, failures } = identity.status === 'failed' ? unreadLiveState(needs, identity.failure) : await readLiveState(client, needs);
      const failed = needs.find((part) => failures[part]);
      if (failed) return fail(evidenceForAppFailure(failures[failed]!));
      const plan = planAdoption(cache.resolved, { arrType: adoption.arrType, live, settingsName: adoption.instanceName, sections });
      const ops: StoredAdoptionOp[] = plan.ops.map(({ kind, op }) => ({ kind, sql: op.sql, target: op.target, summary: op.summary }));
      await em().nativeUpdate(
        Adoption,
        { id: adoptionId },
        { preview: adoptionPreviewBody(plan), ops: ops as unknown as Record<string, unknown>[], databaseVersion: databaseVersionOf(cache), updatedAt: new Date() },
      );
      return { status: 'ready', failure: null };
    },

    /** True when the database is still in the state the preview was planned against. */
    async checkAdoptionFresh(adoptionId: number): Promise<boolean> {
      const adoption = await em().findOneOrFail(Adoption, { id: adoptionId }, { fields: ['databaseId', 'databaseVersion'] });
      return databaseVersionOf(await deps.pcdCaches.build(adoption.databaseId)) === adoption.databaseVersion;
    },

    async recordAdoptionStatus(adoptionId: number, status: AdoptionStatus, extra: { expiresAtMs?: number; failure?: FailureEvidence | null } = {}): Promise<void> {
      const changes: Partial<Adoption> = { status, updatedAt: new Date() };
      if (extra.expiresAtMs !== undefined) changes.expiresAt = new Date(extra.expiresAtMs);
      if (extra.failure !== undefined) changes.failure = extra.failure ? { ...extra.failure } : null;
      if (status === 'applied') changes.appliedAt = new Date();
      await em().nativeUpdate(Adoption, { id: adoptionId }, changes);
    },

    /**
     * Writes the planned ops to the user layer, once: a snapshot first (recorded on the adoption,
     * so a retried attempt takes none again), then every op in one transaction, each labelled with
     * the adoption, so an attempt that died after storing them finds them instead of storing them
     * twice. Then, when asked, the instance's sync configuration selects what was adopted.
     */
    async applyAdoption(adoptionId: number): Promise<AppliedAdoption> {
      const heartbeat = progressHeartbeat(Context.current(), () => ({ adoptionId }));
      try {
        const adoption = await em().findOneOrFail(Adoption, { id: adoptionId });
        // A worker that did not pull the database builds its cache first (the writer reads it).
        await deps.pcdCaches.build(adoption.databaseId);
        let opIds = adoption.appliedOpIds ?? (await storedOps(adoption));
        if (opIds.length === 0 && adoption.appliedOpIds === null && (adoption.ops ?? []).length > 0) {
          const planned = ((adoption.ops ?? []) as unknown as StoredAdoptionOp[]).map((o) => ({
            kind: o.kind,
            op: { sql: o.sql, target: o.target, summary: `${adoptionOpLabel(adoptionId)} ${o.summary}` } satisfies PlannedUserOp,
          }));
          const stored = await writer.storePlanned(adoption.databaseId, planned, {
            version: (cache) => databaseVersionOf(cache) === adoption.databaseVersion,
            snapshot: async (take) => {
              if (adoption.snapshotId !== null) return;
              const snapshotId = await take();
              await em().nativeUpdate(Adoption, { id: adoptionId }, { snapshotId, updatedAt: new Date() });
            },
          });
          if (stored === 'stale') {
            // An attempt that timed out may have stored them meanwhile (the version moved with them).
            opIds = await storedOps(adoption);
            if (opIds.length === 0) return { stale: true, opIds: [] };
          } else opIds = stored;
        } else if (adoption.appliedOpIds === null && (adoption.ops ?? []).length === 0) {
          const cache = await deps.pcdCaches.build(adoption.databaseId);
          if (databaseVersionOf(cache) !== adoption.databaseVersion) return { stale: true, opIds: [] };
        }
        await em().nativeUpdate(Adoption, { id: adoptionId }, { appliedOpIds: opIds, updatedAt: new Date() });
        if (adoption.selectAdopted) {
          const selection = (adoption.preview as { selection?: Record<string, unknown> } | null)?.selection;
          if (selection) {
            // The adopted database goes first (it holds what the app has); the instance's other databases follow in their order.
            const configs = SyncConfigService.of(deps);
            const others = ((await configs.find(adoption.instanceId))?.databases ?? []).filter((d) => d.databaseId !== adoption.databaseId);
            await configs.put(adoption.instanceId, { databases: [{ databaseId: adoption.databaseId, selection }, ...others] });
          }
        }
        return { stale: false, opIds };
      } finally {
        heartbeat.stop();
      }
    },
  };
}

