import { PortableMigration } from './portable-migration';

/**
 * PCD snapshots and rollbacks, timeline annotations, and the indexes the merged timeline query
 * uses (each branch is read in occurredAt/id order with its filters).
 */
export class Migration0007SnapshotsAndTimeline extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('pcd_snapshot_bases', (t) => {
          t.increments('id').primary();
          t.integer('database_id').notNullable();
          t.string('digest', 64).notNullable();
          t.integer('op_count').notNullable();
          t.binary('payload').notNullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.unique(['database_id', 'digest'], { indexName: 'pcd_snapshot_bases_database_digest_unique' });
        })
        .createTable('pcd_snapshots', (t) => {
          t.increments('id').primary();
          t.integer('database_id').notNullable();
          t.string('database_name', 100).notNullable();
          t.string('subtype', 20).notNullable();
          t.string('note', 500).nullable();
          t.string('base_commit', 64).nullable();
          t.integer('base_id').notNullable();
          t.jsonb('user_ops').notNullable();
          t.integer('base_op_count').notNullable();
          t.integer('tweak_op_count').notNullable();
          t.integer('user_op_count').notNullable();
          t.string('state_hash', 64).nullable();
          t.string('checksum', 64).notNullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.index(['database_id', 'created_at', 'id'], 'pcd_snapshots_database_created_index');
          t.index(['created_at', 'id'], 'pcd_snapshots_created_index');
        })
        .createTable('pcd_rollbacks', (t) => {
          t.increments('id').primary();
          t.integer('database_id').notNullable();
          t.string('database_name', 100).notNullable();
          t.integer('snapshot_id').notNullable();
          t.integer('pre_snapshot_id').nullable();
          t.integer('previous_pinned_snapshot_id').nullable();
          t.string('status', 20).notNullable().defaultTo('running');
          t.string('step', 30).nullable();
          t.string('trigger', 20).notNullable().defaultTo('manual');
          t.jsonb('ops_undone').notNullable();
          t.jsonb('ops_reactivated').notNullable();
          t.string('error', 500).nullable();
          t.string('workflow_id', 200).notNullable();
          t.datetime('started_at', { useTz: true }).notNullable();
          t.datetime('finished_at', { useTz: true }).nullable();
          t.index(['database_id', 'started_at', 'id'], 'pcd_rollbacks_database_started_index');
          t.index(['started_at', 'id'], 'pcd_rollbacks_started_index');
        })
        .createTable('timeline_annotations', (t) => {
          t.increments('id').primary();
          t.string('source', 20).notNullable();
          t.integer('source_id').notNullable();
          t.text('body').notNullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
          t.index(['source', 'source_id'], 'timeline_annotations_event_index');
        })
        .alterTable('pcd_ops', (t) => {
          t.integer('superseded_by').nullable();
        })
        .alterTable('pcd_databases', (t) => {
          t.integer('pinned_snapshot_id').nullable();
        })
        .alterTable('sync_runs', (t) => {
          t.index(['started_at', 'id'], 'sync_runs_started_id_index');
          t.index(['instance_id', 'started_at', 'id'], 'sync_runs_instance_started_index');
          t.index(['arr_type', 'started_at', 'id'], 'sync_runs_arr_type_started_index');
        })
        .alterTable('canary_rollouts', (t) => {
          t.index(['created_at', 'id'], 'canary_rollouts_created_id_index');
          t.index(['canary_instance_id', 'created_at', 'id'], 'canary_rollouts_instance_created_index');
          t.index(['arr_type', 'created_at', 'id'], 'canary_rollouts_arr_type_created_index');
        }),
    );
  }
}
