import { PortableMigration } from './portable-migration';

/**
 * A canary rollout applies its targets itself (no child workflow per target), so the runs of its
 * targets carry the rollout's workflow id: the id is an index, no longer unique per run.
 */
export class Migration0010RolloutTargetRuns extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.alterTable('sync_runs', (t) => {
        t.dropUnique(['workflow_id']);
        t.index(['workflow_id'], 'sync_runs_workflow_id_index');
      }),
    );
  }
}
