/**
 * Replay of operation layers into in-memory SQLite, with lineage captured by triggers.
 *
 * Order: schema (DDL, then seed ops), base, tweaks, user. Foreign keys are on: cascades are part
 * of the semantics. Each op runs in its own SAVEPOINT; an op that fails is rolled back to its
 * savepoint, recorded with a reason (see failure.ts) and skipped, never fatal.
 *
 * Two databases come out: `base` (schema + base + tweaks) and `resolved` (a copy of base with the
 * user layer replayed on top). User-layer ops that fail because the base moved underneath them
 * become pending conflicts on their target entity.
 */
import Database from 'better-sqlite3';
import { LINEAGE_DDL, LineageContext, lineageTriggersDdl } from './lineage/capture';
import { SCHEMA_DDL } from './schema/tables';
import { seedFiles } from './schema/seeds';
import { describeStatement, type StatementKind } from './sql/statement';
import { statementRanges } from './sql/split';
import { judgeNoChange, reasonForError, type FailureReason } from './failure';
import type { OpLayer, OpTarget, PcdOp } from './ops';
import type { PortableType } from './entities/types';

export interface OpOutcome {
  /** Replay sequence number (1-based, across all layers). */
  seq: number;
  layer: OpLayer;
  id: number | null;
  file: string | null;
  position: number | null;
  markerId: string | null;
  target: OpTarget | null;
  status: 'applied' | 'failed';
  reason: FailureReason | null;
  /** Diagnostic text (may contain SQLite's message: not for public display). */
  message: string | null;
}

export interface ReplayProgress {
  layer: OpLayer;
  done: number;
  total: number;
}

export type ProgressCallback = (progress: ReplayProgress) => void;

/** A user-layer op as stored by the application: always targets one portable entity. */
export interface UserOp {
  id: number;
  sql: string;
  target: { portableType: PortableType; name: string };
}

/** A user op that no longer applies on top of the current base. */
export interface PendingConflict {
  opId: number;
  portableType: PortableType;
  name: string;
  reason: FailureReason;
}

/** User-op failure reasons that make a pending conflict (the base moved underneath the edit). */
export const CONFLICT_REASONS: ReadonlySet<FailureReason> = new Set(['guard_mismatch', 'missing_target', 'duplicate_key']);

export interface ReplayInput {
  /** Base ops in replay order; ids are the caller's database op ids. */
  base: PcdOp[];
  /** Tweak (file-layer) ops in replay order. */
  tweaks?: PcdOp[];
  user?: UserOp[];
  onProgress?: ProgressCallback;
}

export interface ReplayedLayer {
  db: Database.Database;
  outcomes: OpOutcome[];
}

export interface ReplayedPcd {
  /** schema + base + tweaks. */
  base: Database.Database;
  /** Everything, user layer included. */
  resolved: Database.Database;
  outcomes: OpOutcome[];
  failures: OpOutcome[];
  conflicts: PendingConflict[];
  stats: { ops: number; applied: number; failed: number; ms: number };
}

function configure(db: Database.Database): LineageContext {
  db.pragma('foreign_keys = ON');
  // REPLACE conflict resolution must fire delete triggers (tombstones) too.
  db.pragma('recursive_triggers = ON');
  return LineageContext.attach(db);
}

/** A fresh database with the schema DDL and the lineage machinery, no rows (no seeds). */
export function createSchemaDatabase(): { db: Database.Database; ctx: LineageContext } {
  const db = new Database(':memory:');
  db.exec(SCHEMA_DDL);
  db.exec(LINEAGE_DDL);
  db.exec(lineageTriggersDdl());
  return { db, ctx: configure(db) };
}

/** Schema-layer seed ops (file layer: identity is file + position). */
export function schemaSeedOps(): PcdOp[] {
  return seedFiles().map((f) => ({ layer: 'schema', id: null, file: f.file, position: 1, sql: f.sql }));
}

/** Opens an independent copy of a replayed database (e.g. base -> resolved). */
export function copyDatabase(source: Database.Database | Buffer): { db: Database.Database; ctx: LineageContext } {
  const buffer = Buffer.isBuffer(source) ? source : source.serialize();
  const db = new Database(buffer);
  return { db, ctx: configure(db) };
}

let template: { buffer: Buffer; outcomes: OpOutcome[] } | null = null;

/**
 * A database holding the replayed schema layer (DDL, lineage machinery, seed ops). The schema
 * layer is deterministic, so it is replayed once per process and copied afterwards.
 */
export function createSeededDatabase(): { db: Database.Database; ctx: LineageContext; outcomes: OpOutcome[] } {
  if (!template) {
    const { db, ctx } = createSchemaDatabase();
    const outcomes = replayOps(db, ctx, schemaSeedOps());
    const failed = outcomes.find((o) => o.status === 'failed');
    if (failed) throw new Error(`schema seed op ${failed.file} failed: ${failed.message}`);
    template = { buffer: db.serialize(), outcomes };
    db.close();
  }
  const { db, ctx } = copyDatabase(template.buffer);
  return { db, ctx, outcomes: template.outcomes.map((o) => ({ ...o })) };
}

interface StatementGroup {
  kind: StatementKind;
  table: string | null;
  cols: string[] | '*' | null;
  sql: string;
}

const FAST_INSERT = /insert\s+into\s+"?([A-Za-z_]\w*)"?\s*\(([^)]*)\)/iy;
const FAST_UPDATE = /update\s+"?([A-Za-z_]\w*)"?\s+set\b/iy;
const FAST_DELETE = /delete\s+from\s+"?([A-Za-z_]\w*)"?(?:\s|$)/iy;

function columnList(text: string): string[] {
  return text.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1').toLowerCase());
}

/**
 * Statements of an op, with consecutive INSERTs into the same table with the same column list
 * merged into one batch (a slice of the original text, executed at once).
 */
function groupStatements(sql: string): StatementGroup[] {
  const groups: StatementGroup[] = [];
  let batch: { head: string; start: number; end: number; group: StatementGroup } | null = null;
  const close = () => {
    if (batch) {
      batch.group.sql = sql.slice(batch.start, batch.end);
      groups.push(batch.group);
      batch = null;
    }
  };
  for (const [start, end] of statementRanges(sql)) {
    FAST_INSERT.lastIndex = start;
    const ins = FAST_INSERT.exec(sql);
    if (ins && ins.index === start && ins.index + ins[0].length <= end) {
      const head = `${ins[1].toLowerCase()}(${ins[2]})`;
      if (batch && batch.head === head) {
        batch.end = end;
        continue;
      }
      close();
      batch = { head, start, end, group: { kind: 'insert', table: ins[1].toLowerCase(), cols: columnList(ins[2]), sql: '' } };
      continue;
    }
    close();
    const text = sql.slice(start, end);
    FAST_UPDATE.lastIndex = start;
    FAST_DELETE.lastIndex = start;
    const upd = FAST_UPDATE.exec(sql);
    if (upd) {
      groups.push({ kind: 'update', table: upd[1].toLowerCase(), cols: null, sql: text });
      continue;
    }
    const del = FAST_DELETE.exec(sql);
    if (del) {
      groups.push({ kind: 'delete', table: del[1].toLowerCase(), cols: null, sql: text });
      continue;
    }
    const d = describeStatement(text);
    groups.push({ kind: d.kind, table: d.table, cols: d.kind === 'insert' ? d.insertColumns : null, sql: text });
  }
  close();
  return groups;
}

class OpFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
  }
}

interface Prepared {
  savepoint: Database.Statement;
  release: Database.Statement;
  rollback: Database.Statement;
  changes: Database.Statement;
}
const preparedByDb = new WeakMap<Database.Database, Prepared>();

function prepared(db: Database.Database): Prepared {
  let p = preparedByDb.get(db);
  if (!p) {
    p = {
      savepoint: db.prepare('SAVEPOINT pcd_op'),
      release: db.prepare('RELEASE pcd_op'),
      rollback: db.prepare('ROLLBACK TO pcd_op'),
      changes: db.prepare('SELECT changes()').pluck(),
    };
    preparedByDb.set(db, p);
  }
  return p;
}

/** Runs one op's statements; throws on failure (the caller rolls back). */
function runOp(db: Database.Database, ctx: LineageContext, p: Prepared, op: PcdOp, seq: number): void {
  for (const group of groupStatements(op.sql)) {
    ctx.beginStatement(seq, group.table, group.kind === 'insert' ? group.cols : null);
    if (group.kind === 'insert') {
      const mark = ctx.rowidMark(group.table);
      db.exec(group.sql);
      if (mark !== null) ctx.captureInserts(group.table!, mark);
      continue;
    }
    db.exec(group.sql);
    if ((group.kind === 'update' || group.kind === 'delete') && (p.changes.get() as number) === 0) {
      const verdict = judgeNoChange(db, group.sql, op.target);
      if (!verdict.ok) throw new OpFailure(verdict.reason, verdict.message);
    }
  }
}

/** Runs ops of one layer inside a transaction, one savepoint per op. */
export function replayOps(
  db: Database.Database,
  ctx: LineageContext,
  ops: readonly PcdOp[],
  options: { onProgress?: ProgressCallback; progressOffset?: number; progressTotal?: number } = {},
): OpOutcome[] {
  const outcomes: OpOutcome[] = [];
  const total = options.progressTotal ?? ops.length;
  const offset = options.progressOffset ?? 0;
  const every = Math.max(1, Math.floor(total / 100));
  const p = prepared(db);
  db.exec('BEGIN');
  try {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      const seq = ctx.beginOp(op.layer, op.id, op.file, op.position, op.markerId ?? null);
      const outcome: OpOutcome = {
        seq,
        layer: op.layer,
        id: op.id,
        file: op.file,
        position: op.position,
        markerId: op.markerId ?? null,
        target: op.target ?? null,
        status: 'applied',
        reason: null,
        message: null,
      };
      p.savepoint.run();
      try {
        runOp(db, ctx, p, op, seq);
        p.release.run();
      } catch (error) {
        p.rollback.run();
        p.release.run();
        ctx.failOp(seq);
        outcome.status = 'failed';
        outcome.reason = error instanceof OpFailure ? error.reason : reasonForError(error);
        outcome.message = error instanceof Error ? error.message : String(error);
      }
      ctx.current = 0;
      outcomes.push(outcome);
      if (options.onProgress && ((i + 1) % every === 0 || i + 1 === ops.length)) {
        options.onProgress({ layer: op.layer, done: offset + i + 1, total });
      }
    }
    ctx.flush();
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  return outcomes;
}

function userOpToPcdOp(op: UserOp): PcdOp {
  return {
    layer: 'user',
    id: op.id,
    file: null,
    position: null,
    target: { entityType: op.target.portableType, name: op.target.name },
    sql: op.sql,
  };
}

/** Pending conflicts among user-layer outcomes. */
export function conflictsOf(outcomes: readonly OpOutcome[]): PendingConflict[] {
  return outcomes
    .filter((o) => o.layer === 'user' && o.status === 'failed' && o.reason !== null && CONFLICT_REASONS.has(o.reason))
    .map((o) => ({ opId: o.id!, portableType: o.target!.entityType as PortableType, name: o.target!.name, reason: o.reason! }));
}

/** Replays the user layer on a copy of a base database (or its serialized bytes). */
export function replayUserLayer(
  base: Database.Database | Buffer,
  userOps: readonly UserOp[],
  options: { onProgress?: ProgressCallback; progressOffset?: number; progressTotal?: number } = {},
): { resolved: Database.Database; outcomes: OpOutcome[]; conflicts: PendingConflict[] } {
  const { db, ctx } = copyDatabase(base);
  const outcomes = replayOps(db, ctx, userOps.map(userOpToPcdOp), options);
  return { resolved: db, outcomes, conflicts: conflictsOf(outcomes) };
}

/** Replays schema, base and tweaks into a new database. */
export function replayBase(
  base: readonly PcdOp[],
  tweaks: readonly PcdOp[] = [],
  options: { onProgress?: ProgressCallback; progressTotal?: number } = {},
): ReplayedLayer {
  const seeded = createSeededDatabase();
  const { db, ctx } = seeded;
  const total = options.progressTotal ?? seeded.outcomes.length + base.length + tweaks.length;
  const outcomes: OpOutcome[] = [...seeded.outcomes];
  let done = seeded.outcomes.length;
  options.onProgress?.({ layer: 'schema', done, total });
  for (const [layer, ops] of [
    ['base', base],
    ['tweaks', tweaks],
  ] as const) {
    const wrong = ops.find((o) => o.layer !== layer);
    if (wrong) throw new Error(`op of layer ${wrong.layer} passed as ${layer}`);
    outcomes.push(...replayOps(db, ctx, ops, { onProgress: options.onProgress, progressOffset: done, progressTotal: total }));
    done += ops.length;
  }
  return { db, outcomes };
}

/** Full replay: schema, base, tweaks into `base`; user on a copy into `resolved`. */
export function replayPcd(input: ReplayInput): ReplayedPcd {
  const started = process.hrtime.bigint();
  const user = input.user ?? [];
  const tweaks = input.tweaks ?? [];
  const total = schemaSeedOps().length + input.base.length + tweaks.length + user.length;
  const base = replayBase(input.base, tweaks, { onProgress: input.onProgress, progressTotal: total });
  const resolved = replayUserLayer(base.db, user, {
    onProgress: input.onProgress,
    progressOffset: total - user.length,
    progressTotal: total,
  });
  const outcomes = [...base.outcomes, ...resolved.outcomes];
  const failures = outcomes.filter((o) => o.status === 'failed');
  return {
    base: base.db,
    resolved: resolved.resolved,
    outcomes,
    failures,
    conflicts: resolved.conflicts,
    stats: {
      ops: outcomes.length,
      applied: outcomes.length - failures.length,
      failed: failures.length,
      ms: Number(process.hrtime.bigint() - started) / 1e6,
    },
  };
}
