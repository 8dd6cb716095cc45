import { PortableMigration } from './portable-migration';

/**
 * What reading an apply's writes back found (src/domain/sync/verify.ts: status, entities checked,
 * the fields that did not land). Runs recorded before this migration, and runs whose apply did not
 * complete, have none (null).
 */
export class Migration0015SyncRunVerification extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.alterTable('sync_runs', (t) => {
        t.jsonb('verification').nullable();
      }),
    );
  }
}
