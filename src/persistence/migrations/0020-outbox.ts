import { PortableMigration } from './portable-migration';

/** The transactional outbox (domain/outbox.ts): effects for Temporal written with the change that causes them. */
export class Migration0020Outbox extends PortableMigration {
  override async up(): Promise<void> {
    this.schema((s) =>
      s.createTable('outbox', (t) => {
        t.string('id', 255).primary();
        t.string('kind', 40).notNullable();
        t.json('payload').notNullable();
        t.bigInteger('created_at').notNullable();
        t.integer('attempts').notNullable();
        t.bigInteger('next_attempt_at').notNullable();
        t.string('last_error', 80).nullable();
        t.index(['next_attempt_at'], 'outbox_next_attempt_index');
      }),
    );
  }
}
