import { PortableMigration } from './portable-migration';

export class Migration0008UiPreferences extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('ui_preferences', (t) => {
          t.string('section_key', 96).primary();
          t.string('mode', 20).notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        })
        .createTable('complexity_tiers', (t) => {
          t.string('section_key', 96).primary();
          t.string('tier', 20).notNullable();
          t.integer('interaction_count').notNullable().defaultTo(0);
          t.integer('advanced_toggle_count').notNullable().defaultTo(0);
          t.string('last_suggested_tier', 20).nullable();
          t.datetime('suggestion_dismissed_at', { useTz: true }).nullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        }),
    );
  }
}
