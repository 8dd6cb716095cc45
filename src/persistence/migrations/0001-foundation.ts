import { PortableMigration } from './portable-migration';

export class Migration0001Foundation extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('instances', (t) => {
          t.increments('id').primary();
          t.string('name', 100).notNullable().unique();
          t.string('arr_type', 20).notNullable();
          t.string('base_url', 500).notNullable();
          t.text('api_key_sealed').notNullable();
          t.boolean('enabled').notNullable().defaultTo(true);
          t.jsonb('tags').notNullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        })
        .createTable('app_settings', (t) => {
          t.string('key', 100).primary();
          t.jsonb('value').notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        }),
    );
  }
}
