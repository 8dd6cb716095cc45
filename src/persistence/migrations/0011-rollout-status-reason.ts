import { PortableMigration } from './portable-migration';

/**
 * Why a rollout ended aborted or failed: the reason's code (src/domain/canary/status-reason.ts) and
 * its pre-authored text, stored with the status so the API, the timeline (and its `q` search) and
 * the notifications read the same words after a restart.
 */
export class Migration0011RolloutStatusReason extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.alterTable('canary_rollouts', (t) => {
        t.string('status_reason_code', 30).nullable();
        t.text('status_reason').nullable();
      }),
    );
  }
}
