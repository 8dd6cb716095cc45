import { PortableMigration } from './portable-migration';

export class Migration0006RefGuide extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('ref_guide_sources', (t) => {
          t.increments('id').primary();
          t.string('name', 100).notNullable().unique();
          t.string('type', 30).notNullable().defaultTo('trash-guides');
          t.string('origin_kind', 10).notNullable();
          t.string('origin_location', 1000).notNullable();
          t.string('branch', 200).nullable();
          t.string('arr_type', 20).notNullable();
          t.boolean('enabled').notNullable().defaultTo(true);
          t.jsonb('database_ids').notNullable();
          t.string('sync_status', 20).notNullable().defaultTo('pending');
          t.string('sync_reason', 60).nullable();
          t.string('last_commit', 64).nullable();
          t.datetime('last_synced_at', { useTz: true }).nullable();
          t.datetime('last_attempt_at', { useTz: true }).nullable();
          t.jsonb('entity_counts').nullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        })
        .createTable('ref_guide_entities', (t) => {
          t.increments('id').primary();
          t.integer('source_id').notNullable();
          t.string('type', 40).notNullable();
          t.string('ref_id', 32).notNullable();
          t.string('name', 300).notNullable();
          t.string('file_path', 500).notNullable();
          t.string('content_hash', 64).notNullable();
          t.jsonb('entity').notNullable();
          t.jsonb('scores').nullable();
          t.integer('group_number').nullable();
          t.integer('version').notNullable().defaultTo(1);
          t.datetime('written_at', { useTz: true }).notNullable();
          t.unique(['source_id', 'type', 'ref_id'], { indexName: 'ref_guide_entities_source_type_ref_unique' });
          t.index(['source_id', 'type', 'name'], 'ref_guide_entities_source_type_name_index');
        }),
    );
  }
}
