import { PortableMigration } from './portable-migration';

export class Migration0004CanaryRollouts extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.createTable('canary_rollouts', (t) => {
        t.increments('id').primary();
        t.string('arr_type', 20).notNullable();
        t.integer('canary_instance_id').notNullable();
        t.string('canary_instance_name', 100).notNullable();
        t.jsonb('targets').notNullable();
        t.jsonb('sections').notNullable();
        t.string('partial_policy', 10).notNullable();
        t.integer('batch_size').notNullable();
        t.integer('evidence_max_age_seconds').notNullable();
        t.string('status', 30).notNullable().defaultTo('canary_running');
        t.string('canary_status', 20).notNullable().defaultTo('pending');
        t.integer('canary_preview_id').nullable();
        t.jsonb('canary_diagnostics').nullable();
        t.string('warning', 500).nullable();
        t.jsonb('remaining_preview').nullable();
        t.integer('rollout_index').notNullable().defaultTo(0);
        t.jsonb('rollout_results').notNullable();
        t.string('trigger', 20).notNullable().defaultTo('manual');
        t.string('state_token', 64).notNullable();
        t.string('workflow_id', 200).notNullable();
        t.datetime('created_at', { useTz: true }).notNullable();
        t.datetime('updated_at', { useTz: true }).notNullable();
        t.datetime('finished_at', { useTz: true }).nullable();
        t.index(['status'], 'canary_rollouts_status_index');
      }),
    );
  }
}
