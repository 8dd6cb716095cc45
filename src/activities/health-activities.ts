import { HealthSnapshot, Instance } from '../persistence/entities';
import { computeAndStoreHealth } from '../services/config-health/health-snapshots';
import type { ActivityDeps } from './deps';
import { healthDropEvent, healthDropped } from '../domain/notifications';
import { notify } from './notify';

export function healthActivities(deps: ActivityDeps) {
  return {
    /** The scheduled run: one snapshot per enabled instance (same code as a recompute), then retention. */
    async snapshotAllInstances(): Promise<{ snapshots: number; pruned: number }> {
      const instances = await deps.orm.em.find(Instance, { enabled: true }, { orderBy: { id: 'asc' } });
      for (const instance of instances) {
        const previous = await deps.orm.em.fork().findOne(HealthSnapshot, { instanceId: instance.id }, { orderBy: { generatedAt: 'desc', id: 'desc' }, fields: ['band'] });
        let dropped = false;
        // A drop's event commits with the snapshot that shows it.
        await computeAndStoreHealth(deps.orm.em.fork(), deps.pcdCaches, instance, 'scheduled', new Date(), async (tx, result) => {
          const band = result.overall.band;
          if (!previous || !healthDropped(previous.band, band)) return;
          const at = new Date(result.generatedAt);
          const score = band === 'unknown' ? null : result.overall.score;
          await notify(deps, (links) => healthDropEvent(links, { instanceId: instance.id, instanceName: instance.name, from: previous.band, to: band, score, at }), `instance:${instance.id}`, tx);
          dropped = true;
        });
        if (dropped) deps.outbox?.kick();
      }
      const cutoff = new Date(Date.now() - deps.config.health.retentionDays * 86_400_000);
      const pruned = await deps.orm.em.nativeDelete(HealthSnapshot, { generatedAt: { $lt: cutoff } });
      deps.logger.info({ snapshots: instances.length, pruned }, 'health snapshots recorded');
      return { snapshots: instances.length, pruned };
    },
  };
}
