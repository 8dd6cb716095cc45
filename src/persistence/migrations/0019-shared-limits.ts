import { PortableMigration } from './portable-migration';

/**
 * Rate limits and sign-in throttling shared by every API process of a deployment: hits per limit,
 * subject and window bucket (incremented by one atomic upsert), and failed sign-ins per throttle key
 * (changed by compare-and-set on `version`).
 */
export class Migration0019SharedLimits extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('rate_limit_windows', (t) => {
          t.string('limit_name', 40).notNullable();
          t.string('subject', 100).notNullable();
          t.bigInteger('window_start').notNullable();
          t.integer('hits').notNullable();
          t.bigInteger('expires_at').notNullable();
          t.primary(['limit_name', 'subject', 'window_start']);
          t.index(['expires_at'], 'rate_limit_windows_expires_index');
        })
        .createTable('login_throttle', (t) => {
          t.string('throttle_key', 255).primary();
          t.integer('failures').notNullable();
          t.bigInteger('quiet_from').notNullable();
          t.integer('pending').notNullable();
          t.bigInteger('pending_since').notNullable();
          t.integer('version').notNullable();
        }),
    );
  }
}
