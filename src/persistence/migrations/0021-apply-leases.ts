import { PortableMigration } from './portable-migration';

/** One apply at a time per instance (services/sync/apply-lease.ts): the run holding each instance's lease. */
export class Migration0021ApplyLeases extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.createTable('apply_leases', (t) => {
        t.integer('instance_id').primary();
        t.integer('holder_run_id').notNullable();
        t.integer('generation').notNullable();
        t.bigInteger('expires_at').notNullable();
      }),
    );
  }
}
