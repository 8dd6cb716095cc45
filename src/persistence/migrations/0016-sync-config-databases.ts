import { PortableMigration } from './portable-migration';

/**
 * Several databases per instance: the ordered entries of a sync configuration (position 0 first,
 * the highest priority), each with its own selection. instance_sync_configs keeps its row per
 * instance with the first entry's database and selection. Existing configurations become their
 * one-element list.
 */
export class Migration0016SyncConfigDatabases extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.createTable('instance_sync_databases', (t) => {
        t.integer('instance_id').notNullable();
        t.integer('position').notNullable();
        t.integer('database_id').notNullable();
        t.jsonb('selection').notNullable();
        t.primary(['instance_id', 'position']);
        t.unique(['instance_id', 'database_id'], { indexName: 'instance_sync_databases_instance_database_unique' });
        t.index(['database_id'], 'instance_sync_databases_database_id_index');
      }),
    );
    this.addSql('insert into instance_sync_databases (instance_id, position, database_id, selection) select instance_id, 0, database_id, selection from instance_sync_configs');
  }
}
