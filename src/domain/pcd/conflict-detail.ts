/**
 * What a pending value-guard conflict is about: the fields the stale user op would change and the
 * value it wanted ("mine") beside the value the layers below give now ("upstream").
 *
 * The op failed because its guards name values the base no longer has. Replaying it with the
 * guards reduced to the rows' keys, on a copy of the resolved state, shows what the user meant:
 * keeping mine writes that payload as a new edit (and removes the stale op); taking upstream
 * removes the stale op.
 */
import { diff, type FieldChange } from '../diff/diff';
import { readEntity } from './entities/read';
import { modelOf } from './entities/registry';
import type { PortableType } from './entities/types';
import { copyDatabase, type PendingConflict } from './replay';
import { tableSpec, type SqlValue } from './schema/registry';
import { splitStatements } from './sql/split';
import { parseWrite, quoteIdent, sqlLiteral, NOT_LITERAL, type Conjunct } from './sql/statement';
import type { PcdState } from './resolved';

export interface ConflictDetail {
  opId: number;
  reason: PendingConflict['reason'];
  /** The entity as the stale op would leave it on the current state; null when it cannot be replayed (e.g. a rename or delete). */
  mine: Record<string, unknown> | null;
  /** Fields the op would change: current is the upstream value, desired the user's. */
  fields: FieldChange[];
}

function keyConjuncts(table: string, where: Conjunct[]): Conjunct[] | null {
  const key = tableSpec(table)?.key;
  if (!key) return null;
  const kept = where.filter((c) => key.includes(c.column));
  return kept.length === key.length ? kept : null;
}

function whereText(conjuncts: Conjunct[]): string {
  return conjuncts.map((c) => (c.test === 'eq' ? `${quoteIdent(c.column)} = ${sqlLiteral(c.value)}` : `${quoteIdent(c.column)} IS ${c.test === 'notnull' ? 'NOT ' : ''}NULL`)).join(' AND ');
}

/** The statement with its value guards dropped (rows addressed by key only); inserts and unparsed statements as they are. */
function unguarded(statement: string): string {
  const write = parseWrite(statement);
  if (!write?.where || !write.set) return statement;
  const where = keyConjuncts(write.table, write.where);
  if (!where) return statement;
  if (write.set.size === 0) return `DELETE FROM ${quoteIdent(write.table)} WHERE ${whereText(where)}`;
  const sets: string[] = [];
  for (const [column, value] of write.set) {
    // Expressions (the planner's updated_at = CURRENT_TIMESTAMP) are no part of the portable data.
    if (value === NOT_LITERAL) continue;
    sets.push(`${quoteIdent(column)} = ${sqlLiteral(value as SqlValue)}`);
  }
  if (sets.length === 0) return statement;
  return `UPDATE ${quoteIdent(write.table)} SET ${sets.join(', ')} WHERE ${whereText(where)}`;
}

/**
 * Detail of each pending conflict on one entity. `opSql` gives the SQL of the user ops by id (the
 * conflicts name their op); a conflict whose op is not given is left out.
 */
export function conflictDetails(state: PcdState, type: PortableType, name: string, opSql: ReadonlyMap<number, string>): ConflictDetail[] {
  const conflicts = state.conflicts.filter((c) => c.portableType === type && c.name === name && opSql.has(c.opId));
  if (conflicts.length === 0) return [];
  const model = modelOf(type);
  const upstream = readEntity(state.resolved, type, name)?.data ?? null;
  return conflicts.map((conflict) => {
    const { db } = copyDatabase(state.resolved);
    try {
      for (const statement of splitStatements(opSql.get(conflict.opId)!)) {
        try {
          db.exec(unguarded(statement));
        } catch {
          // A statement that cannot apply on the current state (e.g. a duplicate insert) changes nothing.
        }
      }
      const mine = readEntity(db, type, name)?.data ?? null;
      return { opId: conflict.opId, reason: conflict.reason, mine, fields: mine ? diff(upstream, mine, model.diffOptions) : [] };
    } finally {
      db.close();
    }
  });
}
