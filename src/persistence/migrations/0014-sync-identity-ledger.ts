import { PortableMigration } from './portable-migration';

/**
 * The sync ledger: per instance, the app id of every custom format and quality profile arrgo
 * manages, bound to the stable identity of the PCD entity it stands for (renames keep it). Rows of
 * instances linked before this migration are rebuilt by name at their next sync.
 */
export class Migration0014SyncIdentityLedger extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.createTable('sync_ledger', (t) => {
        t.increments('id').primary();
        t.integer('instance_id').notNullable();
        t.string('entity_type', 20).notNullable();
        t.integer('app_id').notNullable();
        t.string('identity', 200).notNullable();
        t.string('name', 200).notNullable();
        t.integer('database_id').notNullable();
        t.boolean('created_by_arrgo').notNullable().defaultTo(false);
        t.datetime('updated_at', { useTz: true }).notNullable();
        t.unique(['instance_id', 'entity_type', 'app_id'], { indexName: 'sync_ledger_instance_entity_unique' });
      }),
    );
  }
}
