import { PortableMigration } from './portable-migration';

export class Migration0002PcdDatabases extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('pcd_databases', (t) => {
          t.increments('id').primary();
          t.string('name', 100).notNullable().unique();
          t.string('source_kind', 10).notNullable();
          t.string('source_location', 1000).notNullable();
          t.string('branch', 200).nullable();
          t.boolean('enabled').notNullable().defaultTo(true);
          t.jsonb('manifest').nullable();
          t.string('commit_sha', 64).nullable();
          t.string('cache_status', 20).notNullable().defaultTo('pending');
          t.string('cache_reason', 100).nullable();
          t.jsonb('cache_stats').nullable();
          t.string('schema_source', 20).nullable();
          t.string('schema_note', 500).nullable();
          t.integer('content_version').notNullable().defaultTo(0);
          t.integer('user_version').notNullable().defaultTo(0);
          t.datetime('last_pulled_at', { useTz: true }).nullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        })
        .createTable('pcd_ops', (t) => {
          t.increments('id').primary();
          t.integer('database_id').notNullable();
          t.string('layer', 10).notNullable();
          t.string('file', 300).nullable();
          t.integer('seq').notNullable();
          t.integer('position').notNullable();
          t.string('marker_id', 40).nullable();
          t.string('label', 500).nullable();
          t.text('sql').notNullable();
          t.string('sha256', 64).notNullable();
          t.string('target_type', 60).nullable();
          t.string('target_name', 200).nullable();
          t.string('kind', 20).nullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.index(['database_id', 'layer', 'seq'], 'pcd_ops_database_id_layer_seq_index');
        }),
    );
  }
}
