import { channel } from 'node:diagnostics_channel';
import { Utils, type Configuration, type LogContext, type TransactionEventBroadcaster } from '@mikro-orm/core';
import { BetterSqliteConnection, BetterSqliteDriver } from '@mikro-orm/better-sqlite';
import type { AbstractSqlConnection, AbstractSqlPlatform, Knex } from '@mikro-orm/knex';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';

/**
 * MikroORM 6 inlines every parameter into the SQL text before handing it to knex
 * (`platform.formatQuery`). A user's string then travels inside the statement: a NUL byte ends
 * the statement early, and the SQL text with the user's input lands in driver error messages and
 * logs. These connections send strings (and string list items) as bound parameters instead;
 * numbers, booleans, dates and null are still inlined exactly as MikroORM formats them.
 */
type SqlConnectionClass = abstract new (...args: any[]) => AbstractSqlConnection;

export interface BoundStatement {
  sql: string;
  bindings: unknown[];
}

/** Rewrites MikroORM's `?`/`??` statement into knex `?` placeholders for strings; null if it cannot. */
export function bindStrings(platform: AbstractSqlPlatform, sql: string, params: readonly unknown[]): BoundStatement | null {
  if (sql.includes('\\?')) return null;
  const bindings: unknown[] = [];
  let index = 0;
  let failed = false;
  const inline = (text: string) => {
    if (text.includes('?')) failed = true;
    return text;
  };
  const value = (param: unknown): string => {
    if (typeof param === 'string') {
      bindings.push(param);
      return '?';
    }
    if (Array.isArray(param)) return param.map(value).join(', ');
    return inline(String(platform.quoteValue(param)));
  };
  const out = sql.replace(/\?\??/g, (match) => {
    if (index >= params.length) {
      failed = true;
      return match;
    }
    const param = params[index++];
    return match === '??' ? inline(platform.quoteIdentifier(param as string)) : value(param);
  });
  if (failed || index !== params.length) return null;
  return { sql: out, bindings };
}

// Profiling probe (see src/platform/profiling.ts, which the layer rules keep this module from importing).
const profileChannel = channel('arrgo:profile');
const WRITE_VERB = /^\s*(insert|update|delete|replace|merge|upsert|create|alter|drop|truncate)\b/i;
const TABLE = /\b(?:into|update|from)\s+[`"]?(\w+)/i;

function now(): number {
  return performance.timeOrigin + performance.now();
}

function withBoundParameters<T extends SqlConnectionClass>(Base: T) {
  abstract class Bound extends Base {
    // Every statement passes here (bound or not); when profiling, each is timed as a read or a write.
    protected override async executeQuery<R>(query: string, cb: () => Promise<R>, context?: LogContext): Promise<R> {
      if (!profileChannel.hasSubscribers) return super.executeQuery(query, cb, context);
      const startedAt = now();
      try {
        return await super.executeQuery(query, cb, context);
      } finally {
        const verb = WRITE_VERB.exec(query)?.[1]?.toLowerCase();
        const table = TABLE.exec(query)?.[1] ?? '';
        profileChannel.publish({ phase: verb ? 'db-write' : 'db-read', name: `${verb ?? 'select'} ${table}`.trim(), startedAt, ms: now() - startedAt });
      }
    }

    override async commit(ctx: Knex.Transaction, eventBroadcaster?: TransactionEventBroadcaster, loggerContext?: LogContext): Promise<void> {
      if (!profileChannel.hasSubscribers) return super.commit(ctx, eventBroadcaster, loggerContext);
      const startedAt = now();
      try {
        return await super.commit(ctx, eventBroadcaster, loggerContext);
      } finally {
        profileChannel.publish({ phase: 'db-commit', name: 'commit', startedAt, ms: now() - startedAt });
      }
    }

    override async execute(queryOrKnex: string | Knex.QueryBuilder | Knex.Raw, params: unknown[] = [], method: 'all' | 'get' | 'run' = 'all', ctx?: unknown, loggerContext?: object): Promise<any> {
      await this.ensureConnection();
      let sql: string;
      if (Utils.isObject<Knex.QueryBuilder | Knex.Raw>(queryOrKnex)) {
        ctx ??= (queryOrKnex as unknown as { client: { transacting?: boolean } }).client.transacting ? queryOrKnex : null;
        const q = queryOrKnex.toSQL();
        sql = q.sql;
        params = [...(q.bindings ?? [])];
      } else sql = queryOrKnex;
      sql = this.config.get('onQuery')(sql, params);
      const bound = params.length ? bindStrings(this.platform as AbstractSqlPlatform, sql, params) : { sql, bindings: [] };
      if (!bound) return super.execute(sql, params, method, ctx as Knex.Transaction, loggerContext as never);
      // Logged without values: the statement with placeholders only.
      return this.executeQuery(
        bound.sql,
        async () => {
          const query = bound.bindings.length ? this.getKnex().raw(bound.sql, bound.bindings as Knex.RawBinding[]) : this.getKnex().raw(bound.sql);
          if (ctx) query.transacting(ctx as Knex.Transaction);
          const res = await query;
          return this.transformRawResult(res, method);
        },
        { query: bound.sql, ...loggerContext },
      );
    }
  }
  return Bound;
}

class BoundSqliteConnection extends withBoundParameters(BetterSqliteConnection) {}
class BoundPostgreSqlConnection extends withBoundParameters(PostgreSqlConnection) {}

/** BetterSqliteDriver whose statements carry strings as bound parameters. */
export class BoundBetterSqliteDriver extends BetterSqliteDriver {
  constructor(config: Configuration) {
    super(config);
    (this as unknown as { connection: AbstractSqlConnection }).connection = new BoundSqliteConnection(this.config);
  }
}

/** PostgreSqlDriver whose statements carry strings as bound parameters. */
export class BoundPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    (this as unknown as { connection: AbstractSqlConnection }).connection = new BoundPostgreSqlConnection(this.config);
  }
}
