/**
 * Replay of operation layers into in-memory SQLite, with lineage captured by triggers.
 *
 * Order: schema (the manifest's schema dependency's ops/, or the bundled DDL; then arrgo's seed
 * ops), base, tweaks, user. Foreign keys are on: cascades are part of the semantics. Each op runs
 * in its own SAVEPOINT.
 *
 * File layers (schema, base, tweaks) run as Profilarr's compiler runs them: every statement of an
 * op runs; a write that changes no row is recorded as skipped (op and statement) and never undoes
 * the rest of the op; an op that changed nothing at all is `skipped`. A statement that errors
 * (constraint, missing table or column, syntax) fails its op: the op is rolled back to its
 * savepoint and recorded with a reason (see failure.ts). Profilarr then aborts the whole build;
 * arrgo keeps replaying and reports the database as degraded instead.
 *
 * User ops keep their value guards: a user op whose UPDATE/DELETE changes nothing fails (and
 * becomes a pending conflict) unless the state it asks for already holds (judgeNoChange).
 *
 * Two databases come out: `base` (schema + base + tweaks) and `resolved` (a copy of base with the
 * user layer replayed on top). User-layer ops that fail because the base moved underneath them
 * become pending conflicts on their target entity.
 */
import Database from 'better-sqlite3';
import { contextColumns, dataColumnsOf, LINEAGE_DDL, LineageContext, lineageTriggersDdl } from './lineage/capture';
import { IDENTITY_DDL, identityTriggersDdl } from './identity';
import { SCHEMA_DDL } from './schema/tables';
import { seedFiles } from './schema/seeds';
import { addMissingBundledTables, additiveSeedSql, schemaGaps } from './schema/dependency';
import { describeStatement, type StatementKind } from './sql/statement';
import { statementBounds } from './sql/split';
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
  /** applied: changed at least one row (or ran DDL); skipped: ran but changed nothing; failed: rolled back. */
  status: 'applied' | 'skipped' | 'failed';
  reason: FailureReason | null;
  /** Diagnostic text (may contain SQLite's message: not for public display). */
  message: string | null;
  /** File layers: writes of this op that changed no row (absent when none). */
  skippedWrites?: SkippedWrite[];
}

/** A write (INSERT, UPDATE, DELETE) of a file-layer op that changed no row. */
export interface SkippedWrite {
  /** 1-based ordinal of the statement within its op. */
  statement: number;
  kind: 'insert' | 'update' | 'delete';
  table: string | null;
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
  /** The schema dependency's ops (layer schema, file identity); absent or empty: the bundled schema. */
  schema?: PcdOp[];
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
  stats: { ops: number; applied: number; skipped: number; failed: number; skippedWrites: number; ms: number };
  /** Where the schema layer came from. */
  schema: SchemaLayerInfo;
}

/** The schema layer a database was replayed on. */
export interface SchemaLayerInfo {
  source: 'bundled' | 'dependency';
  /** Bundled tables arrgo added because the dependency lacks them. */
  addedTables: string[];
  /** Columns arrgo's readers use that the dependency's tables lack (`table.column`). */
  gaps: string[];
}

/** schema: a database with the same schema (a copy's source), read instead of the copy's. */
function configure(db: Database.Database, schema: Database.Database = db): LineageContext {
  db.pragma('foreign_keys = ON');
  setRecursiveTriggers(db, schema);
  return LineageContext.attach(db);
}

/**
 * REPLACE conflict resolution should fire the lineage delete triggers (tombstones), which SQLite
 * does only with recursive triggers on. A schema dependency with triggers of its own (Profilarr's
 * schema cleans up orphaned conditions on delete) must see SQLite's default behaviour, as in
 * Profilarr's compiler: then recursive triggers stay off and a REPLACE leaves no tombstone.
 */
function setRecursiveTriggers(db: Database.Database, schema: Database.Database = db): void {
  const own = schema.prepare("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, 5) <> '_pcd_' LIMIT 1").get();
  db.pragma(`recursive_triggers = ${own ? 'OFF' : 'ON'}`);
}

/** A fresh database with the schema DDL and the lineage machinery, no rows (no seeds). */
export function createSchemaDatabase(): { db: Database.Database; ctx: LineageContext } {
  const db = new Database(':memory:');
  db.exec(SCHEMA_DDL);
  db.exec(LINEAGE_DDL);
  db.exec(lineageTriggersDdl());
  db.exec(IDENTITY_DDL);
  db.exec(identityTriggersDdl(dataColumnsOf(db)));
  return { db, ctx: configure(db) };
}

/** Schema-layer seed ops (file layer: identity is file + position). */
export function schemaSeedOps(): PcdOp[] {
  return seedFiles().map((f) => ({ layer: 'schema', id: null, file: f.file, position: 1, sql: f.sql }));
}

/**
 * Opens an independent copy of a replayed database (e.g. base -> resolved). A copy of an open
 * database has its schema: the source answers what configure asks of it, and the copy reads its
 * schema when first used (a copy that replays nothing and is never read never parses it).
 */
export function copyDatabase(source: Database.Database | Buffer): { db: Database.Database; ctx: LineageContext } {
  if (Buffer.isBuffer(source)) {
    const db = new Database(source);
    return { db, ctx: configure(db) };
  }
  const db = new Database(source.serialize());
  return { db, ctx: configure(db, source) };
}

interface SchemaTemplate {
  buffer: Buffer;
  outcomes: OpOutcome[];
  info: SchemaLayerInfo;
}

/** Replayed schema layers by content (the bundled one, and each dependency version seen). */
const templates = new Map<string, SchemaTemplate>();
const TEMPLATE_LIMIT = 8;

/** Templates are keyed by the schema ops' full content (a few tens of KB), so equal layers share one. */
function schemaKey(schemaOps: readonly PcdOp[]): string {
  if (schemaOps.length === 0) return 'bundled';
  return schemaOps.map((op) => `${op.file}\u0000${op.position}\u0000${op.sql}`).join('\u0001');
}

function buildBundledSchema(): SchemaTemplate {
  const { db, ctx } = createSchemaDatabase();
  const outcomes = replayOps(db, ctx, schemaSeedOps());
  const failed = outcomes.find((o) => o.status === 'failed');
  if (failed) throw new Error(`schema seed op ${failed.file} failed: ${failed.message}`);
  const template = { buffer: db.serialize(), outcomes, info: { source: 'bundled' as const, addedTables: [], gaps: [] } };
  db.close();
  return template;
}

/**
 * The dependency's ops are the schema layer; then arrgo adds the bundled tables the dependency
 * lacks, lineage triggers for every table present, and seed rows the dependency's tables lack.
 */
function buildDependencySchema(schemaOps: readonly PcdOp[]): SchemaTemplate {
  const db = new Database(':memory:');
  try {
    db.exec(LINEAGE_DDL);
    const ctx = configure(db);
    const outcomes = replayOps(db, ctx, schemaOps);
    setRecursiveTriggers(db);
    const addedTables = addMissingBundledTables(db);
    const columns = dataColumnsOf(db);
    db.exec(lineageTriggersDdl(columns));
    db.exec(IDENTITY_DDL);
    db.exec(identityTriggersDdl(columns));
    ctx.refreshTables();
    const seeds = replayOps(
      db,
      ctx,
      schemaSeedOps().map((op) => ({ ...op, sql: additiveSeedSql(op.sql) })),
    );
    // Seed rows are arrgo's best effort on top of the dependency: a table shaped differently keeps
    // what the dependency gives, and that is not a failure of the database.
    for (const o of seeds) {
      if (o.status === 'failed') Object.assign(o, { status: 'skipped', reason: null, message: 'seed rows not added: the dependency defines this table differently' });
    }
    outcomes.push(...seeds);
    const info: SchemaLayerInfo = { source: 'dependency', addedTables, gaps: schemaGaps(db) };
    return { buffer: db.serialize(), outcomes, info };
  } finally {
    db.close();
  }
}

/**
 * A database holding the replayed schema layer: the schema dependency's ops when given, else the
 * bundled DDL; then arrgo's seed ops. Each distinct schema layer is replayed once per process and
 * copied afterwards.
 */
export function createSeededDatabase(schemaOps: readonly PcdOp[] = []): {
  db: Database.Database;
  ctx: LineageContext;
  outcomes: OpOutcome[];
  schema: SchemaLayerInfo;
} {
  const wrong = schemaOps.find((o) => o.layer !== 'schema');
  if (wrong) throw new Error(`op of layer ${wrong.layer} passed as schema`);
  const key = schemaKey(schemaOps);
  let template = templates.get(key);
  if (!template) {
    template = schemaOps.length === 0 ? buildBundledSchema() : buildDependencySchema(schemaOps);
    if (templates.size >= TEMPLATE_LIMIT) templates.delete(templates.keys().next().value as string);
    templates.set(key, template);
  }
  const { db, ctx } = copyDatabase(template.buffer);
  return {
    db,
    ctx,
    outcomes: template.outcomes.map((o) => ({ ...o })),
    schema: { ...template.info, addedTables: [...template.info.addedTables], gaps: [...template.info.gaps] },
  };
}

interface StatementGroup {
  kind: StatementKind;
  table: string | null;
  /** The statement context's column list as `_pcd_ctx.cols` stores it (INSERTs), else null. */
  cols: string | null;
  sql: string;
  /** 1-based ordinal of the group's first statement within the op. */
  ordinal: number;
}

const TRANSACTION_CONTROL = /^\s*(?:BEGIN(?:\s+(?:DEFERRED|IMMEDIATE|EXCLUSIVE))?(?:\s+TRANSACTION)?|COMMIT(?:\s+TRANSACTION)?|END(?:\s+TRANSACTION)?)\s*;?\s*$/i;
const FAST_INSERT = /insert\s+into\s+"?([A-Za-z_]\w*)"?\s*\(([^)]*)\)/iy;
const FAST_UPDATE = /update\s+"?([A-Za-z_]\w*)"?\s+set\b/iy;
const FAST_DELETE = /delete\s+from\s+"?([A-Za-z_]\w*)"?(?:\s|$)/iy;
/** First letters (lower-cased with | 0x20) of the statements the fast patterns above can match. */
const LETTER_I = 0x69;
const LETTER_U = 0x75;
const LETTER_D = 0x64;

function columnList(text: string): string[] {
  return text.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1').toLowerCase());
}

/**
 * Column lists of the INSERT heads met so far (raw text between the parentheses → `_pcd_ctx.cols`
 * text): a replay meets a few dozen distinct lists over a thousand INSERT batches. Kept per replay
 * (its keys are slices of op texts, which it must not outlive).
 */
type ColumnListMemo = Map<string, string>;

function insertContextColumns(raw: string, memo: ColumnListMemo): string {
  let text = memo.get(raw);
  if (text === undefined) {
    text = contextColumns(columnList(raw))!;
    memo.set(raw, text);
  }
  return text;
}

/** Continuations of a batch checked with startsWith before its head is compiled into a regular expression. */
const HEAD_REGEX_AFTER = 16;

/**
 * Whether a statement at an offset starts with a batch's exact head text. A bulk file's batches
 * run to thousands of statements with heads of up to ~150 characters: past a few statements the
 * head is matched by a compiled sticky regular expression (two to three times faster than startsWith).
 */
class HeadMatcher {
  private checks = 0;
  private regex: RegExp | null = null;

  constructor(readonly raw: string) {}

  at(sql: string, offset: number): boolean {
    if (this.regex === null) {
      if (++this.checks <= HEAD_REGEX_AFTER) return sql.startsWith(this.raw, offset);
      this.regex = new RegExp(this.raw.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'y');
    }
    this.regex.lastIndex = offset;
    return this.regex.test(sql);
  }
}

/**
 * Statements of an op, with consecutive INSERTs into the same table with the same column list
 * merged into one batch (a slice of the original text, executed at once).
 */
function groupStatements(sql: string, memo: ColumnListMemo = new Map()): StatementGroup[] {
  const groups: StatementGroup[] = [];
  const bounds = statementBounds(sql);
  // The open INSERT batch: its group, head (table and column list), exact head text and end.
  let batch: StatementGroup | null = null;
  let batchHead = '';
  let batchText = new HeadMatcher('');
  let batchStart = 0;
  let batchEnd = 0;
  for (let i = 0; 2 * i < bounds.length; i++) {
    const start = bounds[2 * i];
    const end = bounds[2 * i + 1];
    // The same INSERT head, written exactly as the batch's first one: it continues the batch.
    if (batch !== null && start + batchText.raw.length <= end && batchText.at(sql, start)) {
      batchEnd = end;
      continue;
    }
    const letter = sql.charCodeAt(start) | 0x20;
    if (letter === LETTER_I) {
      FAST_INSERT.lastIndex = start;
      const ins = FAST_INSERT.exec(sql);
      if (ins && ins.index + ins[0].length <= end) {
        const head = `${ins[1].toLowerCase()}(${ins[2]})`;
        if (batch !== null && batchHead === head) {
          batchEnd = end;
          continue;
        }
        if (batch !== null) groups.push({ ...batch, sql: sql.slice(batchStart, batchEnd) });
        batch = { kind: 'insert', table: ins[1].toLowerCase(), cols: insertContextColumns(ins[2], memo), sql: '', ordinal: i + 1 };
        batchHead = head;
        batchText = new HeadMatcher(ins[0]);
        batchStart = start;
        batchEnd = end;
        continue;
      }
    }
    if (batch !== null) {
      groups.push({ ...batch, sql: sql.slice(batchStart, batchEnd) });
      batch = null;
    }
    const text = sql.slice(start, end);
    if (letter === LETTER_U) {
      FAST_UPDATE.lastIndex = start;
      const upd = FAST_UPDATE.exec(sql);
      if (upd) {
        groups.push({ kind: 'update', table: upd[1].toLowerCase(), cols: null, sql: text, ordinal: i + 1 });
        continue;
      }
    } else if (letter === LETTER_D) {
      FAST_DELETE.lastIndex = start;
      const del = FAST_DELETE.exec(sql);
      if (del) {
        groups.push({ kind: 'delete', table: del[1].toLowerCase(), cols: null, sql: text, ordinal: i + 1 });
        continue;
      }
    }
    // Each op already runs in its own savepoint: a file's own BEGIN/COMMIT would fail inside it.
    if (TRANSACTION_CONTROL.test(text)) continue;
    const d = describeStatement(text);
    groups.push({ kind: d.kind, table: d.table, cols: d.kind === 'insert' ? contextColumns(d.insertColumns) : null, sql: text, ordinal: i + 1 });
  }
  if (batch !== null) groups.push({ ...batch, sql: sql.slice(batchStart, batchEnd) });
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
  totalChanges: Database.Statement;
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
      totalChanges: db.prepare('SELECT total_changes()').pluck(),
    };
    preparedByDb.set(db, p);
  }
  return p;
}

interface OpRun {
  /** Rows changed (or DDL run) by the op. */
  changed: boolean;
  skippedWrites: SkippedWrite[];
}

/**
 * Runs one op's statements; throws on failure (the caller rolls back). File layers record writes
 * that changed nothing and go on; user ops have them judged (value guards).
 */
function runOp(db: Database.Database, ctx: LineageContext, p: Prepared, op: PcdOp, seq: number, memo: ColumnListMemo): OpRun {
  const guarded = op.layer === 'user';
  const run: OpRun = { changed: false, skippedWrites: [] };
  for (const group of groupStatements(op.sql, memo)) {
    ctx.beginStatement(seq, group.table, group.cols);
    let rows: number;
    if (group.kind === 'insert') {
      const mark = ctx.insertMark(group.table);
      if (mark !== null) {
        db.exec(group.sql);
        rows = ctx.captureInserts(group.table!, mark);
      } else {
        const before = p.totalChanges.get() as number;
        db.exec(group.sql);
        rows = (p.totalChanges.get() as number) - before;
      }
    } else {
      db.exec(group.sql);
      if (group.kind !== 'update' && group.kind !== 'delete') {
        run.changed = true;
        ctx.schemaMayHaveChanged();
        continue;
      }
      rows = p.changes.get() as number;
    }
    if (rows > 0) {
      run.changed = true;
      continue;
    }
    if (!guarded) {
      run.skippedWrites.push({ statement: group.ordinal, kind: group.kind as SkippedWrite['kind'], table: group.table });
    } else if (group.kind !== 'insert') {
      const verdict = judgeNoChange(db, group.sql, op.target);
      if (!verdict.ok) throw new OpFailure(verdict.reason, verdict.message);
    }
  }
  return run;
}

/** Runs ops of one layer inside a transaction, one savepoint per op. */
export function replayOps(
  db: Database.Database,
  ctx: LineageContext,
  ops: readonly PcdOp[],
  options: { onProgress?: ProgressCallback; progressOffset?: number; progressTotal?: number } = {},
): OpOutcome[] {
  const outcomes: OpOutcome[] = [];
  // Nothing to replay (e.g. a database without user ops): the copy stays as it is.
  if (ops.length === 0) return outcomes;
  const total = options.progressTotal ?? ops.length;
  const offset = options.progressOffset ?? 0;
  const every = Math.max(1, Math.floor(total / 100));
  const p = prepared(db);
  const memo: ColumnListMemo = new Map();
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
        const run = runOp(db, ctx, p, op, seq, memo);
        p.release.run();
        if (run.skippedWrites.length > 0) outcome.skippedWrites = run.skippedWrites;
        if (!run.changed && op.layer !== 'user') outcome.status = 'skipped';
      } catch (error) {
        p.rollback.run();
        p.release.run();
        ctx.failOp(seq);
        outcome.status = 'failed';
        outcome.reason = error instanceof OpFailure ? error.reason : reasonForError(error);
        outcome.message = error instanceof Error ? error.message : String(error);
      }
      ctx.current = 0;
      // A schema-layer op may create tables; later inserts into them are captured too.
      if (op.layer === 'schema') ctx.refreshTables();
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
  options: { onProgress?: ProgressCallback; progressTotal?: number; schema?: readonly PcdOp[] } = {},
): ReplayedLayer & { schema: SchemaLayerInfo } {
  const seeded = createSeededDatabase(options.schema);
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
  return { db, outcomes, schema: seeded.schema };
}

/** Replay counts: ops by status and skipped writes. */
export function replayCounts(outcomes: readonly OpOutcome[]): { ops: number; applied: number; skipped: number; failed: number; skippedWrites: number } {
  const counts = { ops: outcomes.length, applied: 0, skipped: 0, failed: 0, skippedWrites: 0 };
  for (const o of outcomes) {
    counts[o.status]++;
    counts.skippedWrites += o.skippedWrites?.length ?? 0;
  }
  return counts;
}

/** Full replay: schema, base, tweaks into `base`; user on a copy into `resolved`. */
export function replayPcd(input: ReplayInput): ReplayedPcd {
  const started = process.hrtime.bigint();
  const user = input.user ?? [];
  const tweaks = input.tweaks ?? [];
  const schemaOps = input.schema ?? [];
  const schemaCount = schemaOps.length === 0 ? schemaSeedOps().length : schemaOps.length + schemaSeedOps().length;
  const total = schemaCount + input.base.length + tweaks.length + user.length;
  const base = replayBase(input.base, tweaks, { onProgress: input.onProgress, progressTotal: total, schema: schemaOps });
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
    stats: { ...replayCounts(outcomes), ms: Number(process.hrtime.bigint() - started) / 1e6 },
    schema: base.schema,
  };
}
