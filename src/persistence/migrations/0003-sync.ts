import { PortableMigration } from './portable-migration';

export class Migration0003Sync extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('instance_sync_configs', (t) => {
          t.integer('instance_id').primary();
          t.integer('database_id').notNullable();
          t.jsonb('selection').notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        })
        .createTable('sync_previews', (t) => {
          t.increments('id').primary();
          t.integer('instance_id').notNullable();
          t.string('instance_name', 100).notNullable();
          t.string('arr_type', 20).notNullable();
          t.jsonb('sections').notNullable();
          t.string('status', 20).notNullable().defaultTo('generating');
          t.string('trigger', 20).notNullable();
          t.string('workflow_id', 200).notNullable();
          t.boolean('auto_apply').notNullable().defaultTo(false);
          t.datetime('generated_at', { useTz: true }).nullable();
          t.datetime('expires_at', { useTz: true }).nullable();
          t.jsonb('preview').nullable();
          t.jsonb('plan').nullable();
          t.string('live_fingerprint', 64).nullable();
          t.jsonb('failure').nullable();
          t.integer('run_id').nullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        })
        .createTable('sync_runs', (t) => {
          t.increments('id').primary();
          t.integer('instance_id').nullable();
          t.string('instance_name', 100).notNullable();
          t.string('arr_type', 20).notNullable();
          t.string('trigger', 20).notNullable();
          t.jsonb('sections_attempted').notNullable();
          t.string('sections_key', 200).notNullable();
          t.string('status', 20).notNullable().defaultTo('running');
          t.integer('sections_run').notNullable().defaultTo(0);
          t.integer('items_synced').notNullable().defaultTo(0);
          t.integer('failure_count').notNullable().defaultTo(0);
          t.integer('entity_change_count').notNullable().defaultTo(0);
          t.integer('entity_outcome_count').notNullable().defaultTo(0);
          t.string('error', 500).nullable();
          t.jsonb('outcomes').notNullable();
          t.integer('preview_id').nullable();
          t.integer('rollout_id').nullable();
          t.string('workflow_id', 200).notNullable().unique();
          t.datetime('started_at', { useTz: true }).notNullable();
          t.datetime('finished_at', { useTz: true }).nullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.index(['started_at'], 'sync_runs_started_at_index');
          t.index(['instance_id'], 'sync_runs_instance_id_index');
        }),
    );
  }
}
