import { Migration } from '@mikro-orm/migrations';
import type { Knex } from '@mikro-orm/knex';

/**
 * Migrations are written once with the knex schema builder, so the same migration list runs on
 * PostgreSQL (production, CI) and on the embedded SQLite default.
 */
export abstract class PortableMigration extends Migration {
  protected schema(build: (schema: Knex.SchemaBuilder) => Knex.SchemaBuilder): void {
    const builder = build(this.getKnex().schema);
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  protected get isPostgres(): boolean {
    return this.driver.getPlatform().constructor.name.toLowerCase().includes('postgre');
  }
}
