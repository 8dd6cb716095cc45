import { PortableMigration } from './portable-migration';

export class Migration0005DriftAndHealth extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('drift_results', (t) => {
          t.integer('instance_id').primary();
          t.string('status', 20).notNullable();
          t.string('reason', 40).nullable();
          t.string('detected_version', 50).nullable();
          t.datetime('checked_at', { useTz: true }).notNullable();
          t.datetime('content_checked_at', { useTz: true }).nullable();
          t.jsonb('counts').notNullable();
          t.jsonb('drift').notNullable();
          t.jsonb('missing').notNullable();
          t.jsonb('unmanaged').notNullable();
          t.integer('managed_total').notNullable().defaultTo(0);
          t.jsonb('issues').notNullable();
          t.integer('failure_streak').notNullable().defaultTo(0);
          t.datetime('backoff_until', { useTz: true }).nullable();
        })
        .createTable('health_snapshots', (t) => {
          t.increments('id').primary();
          t.integer('instance_id').notNullable();
          t.datetime('generated_at', { useTz: true }).notNullable();
          t.string('engine_version', 40).notNullable();
          t.string('trigger', 20).notNullable();
          t.string('band', 20).notNullable();
          t.integer('score').nullable();
          t.jsonb('result').nullable();
          t.boolean('evidence_recorded').notNullable().defaultTo(true);
          t.index(['instance_id', 'generated_at'], 'health_snapshots_instance_generated_index');
        }),
    );
  }
}
