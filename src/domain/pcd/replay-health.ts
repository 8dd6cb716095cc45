/**
 * How complete a replayed database is, for its cache status:
 * - ready: every schema, base and tweak op ran (writes that changed nothing are skipped, not failed);
 * - degraded: some ops failed; the state is served, marked incomplete;
 * - failed: the replay produced no entity at all although the repository has ops, or the schema
 *   dependency lacks columns arrgo reads (its tables cannot be read as PCD entities).
 * Pending conflicts of user ops are a normal state of the user layer, not a degradation.
 */
import type Database from 'better-sqlite3';
import { CONFLICT_REASONS, type OpOutcome, type SchemaLayerInfo } from './replay';
import { TABLE_SPECS } from './schema/registry';
import type { OpLayer, OpTarget } from './ops';

export type ReplayHealthStatus = 'ready' | 'degraded' | 'failed';
export type ReplayHealthReason = 'ops_failed' | 'schema_gaps' | 'replay_empty';

/** A failed op, named for people (no SQLite text). */
export interface FailedOpRef {
  layer: OpLayer;
  /** Database op id (base, user); null for file layers. */
  opId: number | null;
  file: string | null;
  position: number | null;
  markerId: string | null;
  target: { entityType: string; name: string } | null;
  reason: string;
}

/** A write of a schema, base or tweak op that changed no row (a skip, never a failure). */
export interface SkippedWriteRef extends Omit<FailedOpRef, 'reason'> {
  statement: number;
  kind: 'insert' | 'update' | 'delete';
  table: string | null;
}

export interface ReplayHealth {
  status: ReplayHealthStatus;
  reason: ReplayHealthReason | null;
  /** Failed ops that degrade the database (user-op conflicts excluded), by reason. */
  failedByReason: Record<string, number>;
  failedOps: number;
  /** The first few of them, in replay order. */
  firstFailed: FailedOpRef[];
  /** Entities (root rows) in the base state. */
  entities: number;
  /** The first few writes that changed no row, in replay order. */
  firstSkippedWrites: SkippedWriteRef[];
}

export const FIRST_FAILED_LIMIT = 5;

/** Tables holding one row (or, for quality definitions, rows sharing a name) per entity. */
const ENTITY_TABLES = Object.entries(TABLE_SPECS)
  .filter(([table, spec]) => spec.owner?.table === table)
  .map(([table]) => table);

/** Distinct entities in a replayed database (tables it lacks count as empty). */
export function countEntities(db: Database.Database): number {
  const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  let total = 0;
  for (const table of ENTITY_TABLES) {
    if (!present.has(table)) continue;
    total += db.prepare(`SELECT COUNT(DISTINCT name) FROM "${table}"`).pluck().get() as number;
  }
  return total;
}

function degrades(o: OpOutcome): boolean {
  return o.status === 'failed' && !(o.layer === 'user' && o.reason !== null && CONFLICT_REASONS.has(o.reason));
}

function identityOf(o: OpOutcome): Omit<FailedOpRef, 'reason'> {
  const target: OpTarget | null = o.target;
  return {
    layer: o.layer,
    opId: o.id,
    file: o.file,
    position: o.position,
    markerId: o.markerId,
    target: target ? { entityType: target.entityType, name: target.name } : null,
  };
}

function refOf(o: OpOutcome): FailedOpRef {
  return { ...identityOf(o), reason: o.reason ?? 'invalid' };
}

function firstSkippedWrites(outcomes: readonly OpOutcome[]): SkippedWriteRef[] {
  const out: SkippedWriteRef[] = [];
  for (const o of outcomes) {
    for (const w of o.skippedWrites ?? []) {
      if (out.length === FIRST_FAILED_LIMIT) return out;
      out.push({ ...identityOf(o), statement: w.statement, kind: w.kind, table: w.table });
    }
  }
  return out;
}

/**
 * Judges a replay. `repositoryOps` is the number of base and tweak ops the repository gave: a
 * repository with ops whose replay left no entity is failed, an empty repository is not.
 */
export function assessReplay(input: { outcomes: readonly OpOutcome[]; base: Database.Database; repositoryOps: number; schema?: SchemaLayerInfo }): ReplayHealth {
  const failed = input.outcomes.filter(degrades);
  const failedByReason: Record<string, number> = {};
  for (const o of failed) failedByReason[o.reason ?? 'invalid'] = (failedByReason[o.reason ?? 'invalid'] ?? 0) + 1;
  const entities = countEntities(input.base);
  const gaps = input.schema?.gaps.length ?? 0;
  const reason: ReplayHealthReason | null =
    gaps > 0 ? 'schema_gaps' : entities === 0 && input.repositoryOps > 0 ? 'replay_empty' : failed.length > 0 ? 'ops_failed' : null;
  const status: ReplayHealthStatus = reason === null ? 'ready' : reason === 'ops_failed' ? 'degraded' : 'failed';
  return {
    status,
    reason,
    failedByReason,
    failedOps: failed.length,
    firstFailed: failed.slice(0, FIRST_FAILED_LIMIT).map(refOf),
    entities,
    firstSkippedWrites: firstSkippedWrites(input.outcomes),
  };
}
