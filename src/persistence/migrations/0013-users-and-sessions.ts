import { PortableMigration } from './portable-migration';

/** Console sign-in: users (scrypt password hashes) and sessions (only the SHA-256 of each session id). */
export class Migration0013UsersAndSessions extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s
        .createTable('users', (t) => {
          t.increments('id').primary();
          t.string('username', 64).notNullable().unique({ indexName: 'users_username_unique' });
          t.string('password_hash', 200).notNullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.datetime('updated_at', { useTz: true }).notNullable();
        })
        .createTable('sessions', (t) => {
          t.string('id_hash', 64).primary();
          t.integer('user_id').notNullable();
          t.string('csrf_token', 64).notNullable();
          t.datetime('created_at', { useTz: true }).notNullable();
          t.datetime('expires_at', { useTz: true }).notNullable();
          t.index(['user_id'], 'sessions_user_index');
          t.index(['expires_at'], 'sessions_expires_index');
        }),
    );
  }
}
