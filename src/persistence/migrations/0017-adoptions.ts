import { PortableMigration } from './portable-migration';

/**
 * Adoptions of an app's own configuration into a database's user layer: the preview (what is
 * created, overridden, skipped), the planned ops, and once applied the stored op ids and the
 * snapshot taken before them.
 */
export class Migration0017Adoptions extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.createTable('adoptions', (t) => {
        t.increments('id').primary();
        t.integer('instance_id').notNullable();
        t.string('instance_name', 100).notNullable();
        t.string('arr_type', 20).notNullable();
        t.integer('database_id').notNullable();
        t.jsonb('sections').notNullable();
        t.boolean('select_adopted').notNullable().defaultTo(true);
        t.string('status', 20).notNullable().defaultTo('generating');
        t.string('workflow_id', 200).notNullable().unique({ indexName: 'adoptions_workflow_id_unique' });
        t.string('database_version', 100).nullable();
        t.jsonb('preview').nullable();
        t.jsonb('ops').nullable();
        t.jsonb('applied_op_ids').nullable();
        t.integer('snapshot_id').nullable();
        t.jsonb('failure').nullable();
        t.datetime('expires_at', { useTz: true }).nullable();
        t.datetime('applied_at', { useTz: true }).nullable();
        t.datetime('created_at', { useTz: true }).notNullable();
        t.datetime('updated_at', { useTz: true }).notNullable();
        t.index(['instance_id'], 'adoptions_instance_index');
      }),
    );
  }
}
