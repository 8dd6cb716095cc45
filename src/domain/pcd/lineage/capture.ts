/**
 * Lineage capture during replay.
 *
 * While ops run, the engine records which op context last wrote each column of each row:
 * - INSERTs are captured by the engine right after each statement (or batch of identical
 *   INSERTs): every row whose rowid is above the table's maximum before the statement gets a
 *   row-level entry (col '*'). The context remembers the table and the columns the INSERT named,
 *   so "explicit" is known per column. Doing this set-based instead of with AFTER INSERT triggers
 *   matters: a trigger is compiled into every INSERT statement, which doubles the cost of a bulk
 *   initial file.
 * - UPDATEs are captured by AFTER UPDATE OF <col> triggers (one per column). SQLite fires them for
 *   every column named in a SET list, whether or not its value changed, and for columns rewritten
 *   by ON UPDATE CASCADE (the context's table then differs from the row's: not explicit).
 * - DELETEs of collection rows (tag links, group members, quality items, metadata type rows) leave
 *   a tombstone per (table, owning entity), so a collection an op shrank still names that op.
 *   Lineage of deleted rows is not removed; when a rowid is reused, the insert capture first clears
 *   whatever an earlier row with that rowid left.
 *
 * Trigger bodies read the current context through the user function pcd_ctx(). All lineage
 * tables live inside the replayed database, so a serialized copy carries its lineage.
 */
import type Database from 'better-sqlite3';
import { BOOKKEEPING_COLUMNS, dataColumns, schemaColumns, tableSpec } from '../schema/registry';

export const LINEAGE_DDL = `
CREATE TABLE _pcd_ops (
  seq INTEGER PRIMARY KEY,
  layer TEXT NOT NULL,
  op_id INTEGER,
  file TEXT,
  position INTEGER,
  marker_id TEXT
);
CREATE TABLE _pcd_ctx (
  id INTEGER PRIMARY KEY,
  op_seq INTEGER NOT NULL,
  tbl TEXT,
  cols TEXT
);
CREATE TABLE _pcd_lineage (
  tbl TEXT NOT NULL,
  rid INTEGER NOT NULL,
  col TEXT NOT NULL,
  ctx INTEGER NOT NULL,
  PRIMARY KEY (tbl, rid, col)
) WITHOUT ROWID;
CREATE TABLE _pcd_tombstones (
  tbl TEXT NOT NULL,
  owner TEXT NOT NULL,
  ctx INTEGER NOT NULL,
  PRIMARY KEY (tbl, owner)
) WITHOUT ROWID;
`;

/** Tables whose rows form collections (unnamed list members or ordered items) of their owner. */
export const COLLECTION_TABLES: ReadonlySet<string> = new Set([
  'regular_expression_tags',
  'custom_format_tags',
  'quality_profile_tags',
  'quality_group_members',
  'quality_profile_qualities',
  'lidarr_metadata_profile_primary_types',
  'lidarr_metadata_profile_secondary_types',
  'lidarr_metadata_profile_release_statuses',
]);

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * Data tables of a database whose rows lineage can follow: everything but SQLite's tables, the
 * lineage bookkeeping tables and WITHOUT ROWID tables (lineage addresses rows by rowid).
 */
export function dataTablesOf(db: Database.Database): string[] {
  return db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 7) <> 'sqlite_' AND substr(name, 1, 5) <> '_pcd_'
         AND upper(sql) NOT LIKE '%WITHOUT ROWID%' ORDER BY rowid`,
    )
    .pluck()
    .all() as string[];
}

/** Data columns (bookkeeping columns removed) of every data table of a database, introspected. */
export function dataColumnsOf(db: Database.Database): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const table of dataTablesOf(db)) {
    const cols = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name).filter((c) => !BOOKKEEPING_COLUMNS.has(c));
    map.set(table, cols);
  }
  return map;
}

/**
 * Trigger DDL for every table: of the bundled schema by default, or of the tables a database
 * actually has (a schema dependency's tables, with arrgo's additions).
 */
export function lineageTriggersDdl(columns: ReadonlyMap<string, readonly string[]> = bundledDataColumns()): string {
  const out: string[] = [];
  for (const [table, cols] of columns) {
    for (const col of cols) {
      // UPSERT keeps working under an outer UPDATE OR IGNORE (a plain OR REPLACE would not).
      out.push(`CREATE TRIGGER "_pcd_u_${table}_${col}" AFTER UPDATE OF "${col}" ON "${table}" BEGIN
  INSERT INTO _pcd_lineage (tbl, rid, col, ctx) VALUES (${q(table)}, NEW.rowid, ${q(col)}, pcd_ctx())
    ON CONFLICT (tbl, rid, col) DO UPDATE SET ctx = excluded.ctx;
END;`);
    }
    const owner = tableSpec(table)?.owner;
    if (owner && COLLECTION_TABLES.has(table) && cols.includes(owner.column)) {
      out.push(`CREATE TRIGGER "_pcd_d_${table}" AFTER DELETE ON "${table}" BEGIN
  INSERT INTO _pcd_tombstones (tbl, owner, ctx) VALUES (${q(table)}, OLD."${owner.column}", pcd_ctx())
    ON CONFLICT (tbl, owner) DO UPDATE SET ctx = excluded.ctx;
END;`);
    }
  }
  return out.join('\n');
}

function bundledDataColumns(): Map<string, string[]> {
  return new Map([...schemaColumns().keys()].map((t) => [t, dataColumns(t).map((c) => c.name)]));
}

/**
 * `_pcd_ctx.cols` of a statement context: the INSERT's column list as ',a,b,' ('*' = all columns),
 * null when it is not an INSERT or its columns are unknown.
 */
export function contextColumns(cols: readonly string[] | '*' | null): string | null {
  return cols === null ? null : cols === '*' ? '*' : `,${cols.join(',')},`;
}

/** What insertMark reads before an INSERT. */
export interface InsertMark {
  rowid: number;
  totalChanges: number;
  /** Lineage rows above rowid exist (before the statement). */
  stale: boolean;
}

type SqlValue = string | number | null;
/** `_pcd_ops` columns; pending op rows are kept flat, OP_WIDTH values per row, seq first. */
const OP_COLUMNS = '_pcd_ops (seq, layer, op_id, file, position, marker_id)';
const OP_WIDTH = 6;
/** `_pcd_ctx` columns; pending context rows are kept flat, CTX_WIDTH values per row, op_seq second. */
const CTX_COLUMNS = '_pcd_ctx (id, op_seq, tbl, cols)';
const CTX_WIDTH = 4;

/**
 * The replay engine's side of lineage: the current context read by pcd_ctx(), set-based insert
 * capture, and the op/context rows (kept in memory and written once per layer).
 */
export class LineageContext {
  /** Context id returned by pcd_ctx(); 0 outside ops. */
  current = 0;
  /**
   * What the database holds when the first op begins (a copy that replays no op never reads it):
   * the next context id and op sequence number, and the data tables (schema-layer ops add theirs).
   */
  private state: { nextCtx: number; nextOpSeq: number; tables: Set<string> } | null = null;
  private contexts: SqlValue[] = [];
  private ops: SqlValue[] = [];
  private readonly failed = new Set<number>();
  private readonly perTable = new Map<string, { mark: Database.Statement; capture: Database.Statement }>();
  private afterInsert: Database.Statement | null = null;
  private clear: Database.Statement | null = null;
  private totalChanges: Database.Statement | null = null;
  /** Set by pcd_ctx(), i.e. by every lineage trigger that fires; reset by insertMark. */
  private triggered = false;
  /**
   * Whether the database has triggers of its own (not lineage's), which could write lineage rows
   * without calling pcd_ctx(); null: to be read again (a statement other than INSERT, UPDATE or
   * DELETE ran since, e.g. a CREATE TRIGGER).
   */
  private ownTriggers: boolean | null = null;

  private constructor(private readonly db: Database.Database) {}

  private opened(): { nextCtx: number; nextOpSeq: number; tables: Set<string> } {
    this.state ??= {
      nextCtx: (this.db.prepare('SELECT COALESCE(MAX(id), 0) + 1 FROM _pcd_ctx').pluck().get() as number) ?? 1,
      nextOpSeq: (this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 FROM _pcd_ops').pluck().get() as number) ?? 1,
      tables: new Set(dataTablesOf(this.db)),
    };
    return this.state;
  }

  /** Re-reads the database's tables (after a schema-layer op created some). */
  refreshTables(): void {
    const known = this.opened().tables;
    for (const t of dataTablesOf(this.db)) known.add(t);
  }

  /** Registers pcd_ctx() on the database (needed again after deserializing a copy). */
  static attach(db: Database.Database): LineageContext {
    const ctx = new LineageContext(db);
    db.function('pcd_ctx', { deterministic: false }, () => {
      ctx.triggered = true;
      return ctx.current;
    });
    return ctx;
  }

  /** Allocates the next op sequence number and remembers the op. */
  beginOp(layer: string, opId: number | null, file: string | null, position: number | null, markerId: string | null): number {
    const seq = this.opened().nextOpSeq++;
    this.ops.push(seq, layer, opId, file, position, markerId);
    return seq;
  }

  /** Forgets the contexts of an op that was rolled back. */
  failOp(seq: number): void {
    this.failed.add(seq);
  }

  /** Starts a statement context; cols is the INSERT column list as contextColumns gives it (null = not an INSERT). */
  beginStatement(seq: number, table: string | null, cols: string | null): void {
    const id = this.opened().nextCtx++;
    this.contexts.push(id, seq, table, cols);
    this.current = id;
  }

  /** A statement other than INSERT, UPDATE or DELETE ran: it may have created or dropped triggers. */
  schemaMayHaveChanged(): void {
    this.ownTriggers = null;
  }

  private hasOwnTriggers(): boolean {
    this.ownTriggers ??=
      this.db
        .prepare(
          "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, 5) <> '_pcd_') OR EXISTS (SELECT 1 FROM sqlite_temp_master WHERE type = 'trigger')",
        )
        .pluck()
        .get() === 1;
    return this.ownTriggers;
  }

  private tableStatements(table: string) {
    let s = this.perTable.get(table);
    if (!s) {
      s = {
        // The highest rowid, total_changes() and whether lineage rows above that rowid exist.
        mark: this.db
          .prepare(
            `SELECT COALESCE(MAX(rowid), 0), total_changes(), EXISTS (SELECT 1 FROM _pcd_lineage WHERE tbl = ${q(table)} AND rid > (SELECT COALESCE(MAX(rowid), 0) FROM "${table}")) FROM "${table}"`,
          )
          .raw(),
        capture: this.db.prepare(`INSERT INTO _pcd_lineage (tbl, rid, col, ctx) SELECT ?, rowid, '*', ? FROM "${table}" WHERE rowid > ?`),
      };
      this.perTable.set(table, s);
    }
    return s;
  }

  /**
   * Before an INSERT into a schema table: its highest rowid, SQLite's total_changes() and whether
   * lineage rows above that rowid exist (left by deleted rows), read in one query (null for tables
   * outside the schema: no lineage to capture).
   */
  insertMark(table: string | null): InsertMark | null {
    if (table === null || !this.opened().tables.has(table)) return null;
    const [rowid, totalChanges, stale] = this.tableStatements(table).mark.get() as [number, number, number];
    this.triggered = false;
    return { rowid, totalChanges, stale: stale === 1 };
  }

  /**
   * After an INSERT into a schema table (marked by insertMark): records the rows it added (rowid
   * above the mark) as written by the current context, first clearing whatever lineage rows with
   * those rowids hold (left by earlier rows, or written during the statement). Returns a positive
   * number when the statement changed rows (total_changes() moved since the mark), else 0.
   */
  captureInserts(table: string, mark: InsertMark): number {
    if (!mark.stale && !this.triggered && !this.hasOwnTriggers()) {
      // Nothing wrote lineage during the statement (no lineage trigger fired, and there are no
      // other triggers), so there is still no lineage row above the mark: nothing to clear. Rows
      // above the mark can only come from the statement, so capturing any means it changed rows.
      const added = this.tableStatements(table).capture.run(table, this.current, mark.rowid).changes;
      if (added > 0) return added;
      this.totalChanges ??= this.db.prepare('SELECT total_changes()').pluck();
      return (this.totalChanges.get() as number) - mark.totalChanges;
    }
    // total_changes() and whether a clear is needed, in one query.
    this.afterInsert ??= this.db.prepare('SELECT total_changes(), EXISTS (SELECT 1 FROM _pcd_lineage WHERE tbl = ? AND rid > ?)').raw();
    const [total, stale] = this.afterInsert.get(table, mark.rowid) as [number, number];
    const rows = total - mark.totalChanges;
    if (rows > 0) {
      if (stale) {
        this.clear ??= this.db.prepare('DELETE FROM _pcd_lineage WHERE tbl = ? AND rid > ?');
        this.clear.run(table, mark.rowid);
      }
      this.tableStatements(table).capture.run(table, this.current, mark.rowid);
    }
    return rows;
  }

  /** Writes the op and context rows of the ops applied since the last flush, in order. */
  flush(): void {
    insertRows(this.db, OP_COLUMNS, OP_WIDTH, this.withoutFailed(this.ops, OP_WIDTH, 0));
    insertRows(this.db, CTX_COLUMNS, CTX_WIDTH, this.withoutFailed(this.contexts, CTX_WIDTH, 1));
    this.ops = [];
    this.contexts = [];
    this.failed.clear();
  }

  /** Flat rows (width values each) whose op sequence number (at seqAt) belongs to no failed op. */
  private withoutFailed(values: SqlValue[], width: number, seqAt: number): SqlValue[] {
    if (this.failed.size === 0) return values;
    const kept: SqlValue[] = [];
    for (let i = 0; i < values.length; i += width) {
      if (!this.failed.has(values[i + seqAt] as number)) for (let k = 0; k < width; k++) kept.push(values[i + k]);
    }
    return kept;
  }
}

const ROWS_PER_INSERT = 100;

/**
 * Inserts flat rows (width values each) in order, ROWS_PER_INSERT to a statement (thousands per
 * layer: far fewer calls than one per row; binding slices of one flat array, not row arrays).
 */
function insertRows(db: Database.Database, into: string, width: number, values: readonly SqlValue[]): void {
  const rows = values.length / width;
  if (rows === 0) return;
  const tuple = `(${Array(width).fill('?').join(', ')})`;
  const many = rows >= ROWS_PER_INSERT ? db.prepare(`INSERT INTO ${into} VALUES ${Array(ROWS_PER_INSERT).fill(tuple).join(', ')}`) : null;
  const one = db.prepare(`INSERT INTO ${into} VALUES ${tuple}`);
  const chunk = ROWS_PER_INSERT * width;
  let i = 0;
  // Bound as arguments, not as one array: better-sqlite3 reads an array's elements through V8's
  // generic property lookup, which costs more than the insert itself.
  for (; many && i + chunk <= values.length; i += chunk) many.run(...values.slice(i, i + chunk));
  for (; i < values.length; i += width) one.run(...values.slice(i, i + width));
}
