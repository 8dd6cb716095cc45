import { createArrClient } from '../clients/arr-client';
import { desiredEntity, liveEntity, selectedBy, supportedOn, transformInputs, type ComparableEntityType, type CompareInstanceInput, type CompareInstanceRead } from '../domain/compare/entity-compare';
import { driftFailure, type DriftReason } from '../domain/drift';
import { catalogFromLive, transformSource } from '../domain/sync';
import { isArrType } from '../domain/arr-types';
import { Instance } from '../persistence/entities';
import { InstanceService } from '../services/instances/instance-service';
import { checkAppIdentity } from '../services/instances/app-identity';
import { readLiveState } from '../services/sync/live-state';
import { readLedger } from '../services/sync/ledger-service';
import { entityIdentity, type IdentityType } from '../domain/pcd';
import type { LedgerEntityType } from '../domain/sync';
import { SyncConfigService } from '../services/sync/sync-config-service';
import type { ActivityDeps } from './deps';

/** Compared entity types the sync ledger binds, with their PCD type. */
const LEDGER_TYPES: Partial<Record<ComparableEntityType, { ledger: LedgerEntityType; pcd: IdentityType }>> = {
  customFormat: { ledger: 'customFormat', pcd: 'custom_format' },
  qualityProfile: { ledger: 'qualityProfile', pcd: 'quality_profile' },
};

export function compareActivities(deps: ActivityDeps) {
  /** The app id the instance's sync ledger binds to this database's custom format or quality profile (null: none). */
  async function boundAppId(instanceId: number, input: CompareInstanceInput, db: Parameters<typeof entityIdentity>[0]): Promise<number | null> {
    const type = LEDGER_TYPES[input.entityType];
    if (!type) return null;
    const identity = `${input.databaseId}:${entityIdentity(db, type.pcd, input.name)}`;
    return (await readLedger(deps.orm.em, instanceId)).find((e) => e.entityType === type.ledger && e.identity === identity)?.appId ?? null;
  }

  return {
    /**
     * Reads what the transform needs from the app (and, with includeLive, the app's own entity),
     * then runs the sync transform with the instance's namespace for this one entity.
     */
    async readCompareInstance(input: CompareInstanceInput): Promise<CompareInstanceRead> {
      const { em } = deps.orm;
      const instance = await em.findOneOrFail(Instance, { id: input.instanceId });
      const base: CompareInstanceRead = { instanceId: instance.id, instanceName: instance.name, arrType: isArrType(instance.arrType) ? instance.arrType : null, supported: false, present: false, desired: null };
      if (!base.arrType) return { ...base, error: 'incompatible' };
      const arrType = base.arrType;
      const cache = await deps.pcdCaches.get(input.databaseId);
      if (!supportedOn(cache.resolved, input.entityType, input.name, arrType)) return { ...base, error: 'incompatible' };
      const config = await new SyncConfigService(em, deps.pcdCaches).find(instance.id);
      if (!config) return { ...base, supported: true, error: 'not_configured' };
      // The selection of the compared database's entry (an instance fed by another database: its effective selection, as before).
      const fed = config.databases.filter((entry) => entry.databaseId === input.databaseId);
      const present = (fed.length ? fed.map((entry) => entry.selection) : [config.selection]).some((selection) => selectedBy(cache.resolved, arrType, selection, input.entityType, input.name));
      const { source, selection, section, liveParts } = transformInputs(cache.resolved, input.entityType, input.name, arrType, config.selection.namespace);
      const connection = await new InstanceService(em, deps.secretBox).connection(instance.id);
      const client = createArrClient(connection, deps.config.appRequestTimeoutMs);
      const failed = (reason: DriftReason) => {
        deps.logger.info({ instanceId: instance.id, reason }, 'compare read failed');
        return { ...base, supported: true, present, error: reason };
      };
      const identity = await checkAppIdentity(client);
      if (identity.status === 'failed') return failed(driftFailure(identity.failure, identity.httpStatus).reason);
      // Another app's entities are never shown as this instance's.
      if (identity.status === 'mismatch') return failed('app_mismatch');
      const { live, failures } = await readLiveState(client, liveParts);
      const failure = Object.values(failures)[0];
      if (failure) return failed(driftFailure(failure).reason);
      const desired = desiredEntity(input.entityType, transformSource(source, catalogFromLive(arrType, live), { namespace: selection.namespace, sections: [section] }), arrType, selection.namespace);
      // The transform left it out for this app (e.g. no condition of a custom format applies to it).
      if (!desired) return { ...base, supported: false, present, error: 'incompatible' };
      const out: CompareInstanceRead = { ...base, supported: true, present, desired };
      if (input.includeLive) {
        const current = liveEntity(input.entityType, live, desired.name, await boundAppId(instance.id, input, cache.resolved));
        if (current !== undefined) out.live = current;
      }
      return out;
    },
  };
}
