/**
 * Per-field lineage of a resolved entity, read from what replay captured (see capture.ts).
 */
import type Database from 'better-sqlite3';
import { leaves } from '../../diff/diff';
import { columnDefault, type SqlValue } from '../schema/registry';
import type { OpLayer } from '../ops';
import type { EntityModel, FieldSource } from '../entities/types';

export type LineageStatus = 'resolved' | 'ambiguous' | 'unavailable';
export type EntityLineageStatus = 'available' | 'ambiguous' | 'unavailable';

export interface LineageEntry {
  /** Field path, in the notation of override paths. */
  path: string;
  status: LineageStatus;
  /** Layer that established the value; null unless resolved. */
  sourceLayer: OpLayer | null;
  /** 'operation', or 'schema-default' when no op wrote the column and it holds the schema default; null unless resolved. */
  sourceKind: 'operation' | 'schema-default' | null;
  /** Establishing op id for base and user ops; null for file layers (schema, tweaks) and schema defaults. */
  opId: number | null;
  /** File-layer op identity (schema, tweaks); null for database ops. */
  fileOp: { file: string; position: number } | null;
  /** The establishing op named the column (INSERT column list or UPDATE SET list). */
  explicit: boolean;
  /** Display only: the value equals the schema default. */
  isSchemaDefault: boolean;
}

interface CtxRow {
  ctx: number;
  tbl: string | null;
  cols: string | null;
  layer: OpLayer;
  op_id: number | null;
  file: string | null;
  position: number | null;
}

const CTX_SELECT = `SELECT c.id AS ctx, c.tbl, c.cols, o.layer, o.op_id, o.file, o.position
  FROM _pcd_ctx c JOIN _pcd_ops o ON o.seq = c.op_seq WHERE c.id = ?`;

class LineageReader {
  private readonly entry: Database.Statement;
  private readonly ctx: Database.Statement;
  private readonly tomb: Database.Statement;
  private readonly ctxCache = new Map<number, CtxRow | null>();

  constructor(db: Database.Database) {
    this.entry = db.prepare('SELECT col, ctx FROM _pcd_lineage WHERE tbl = ? AND rid = ?');
    this.ctx = db.prepare(CTX_SELECT);
    this.tomb = db.prepare('SELECT ctx FROM _pcd_tombstones WHERE tbl = ? AND owner = ?').pluck();
  }

  context(id: number): CtxRow | null {
    if (!this.ctxCache.has(id)) this.ctxCache.set(id, (this.ctx.get(id) as CtxRow | undefined) ?? null);
    return this.ctxCache.get(id)!;
  }

  /** col -> ctx for one row. */
  rowEntries(table: string, rowid: number): Map<string, number> {
    const rows = this.entry.all(table, rowid) as { col: string; ctx: number }[];
    return new Map(rows.map((r) => [r.col, r.ctx]));
  }

  tombstone(table: string, owner: string): number | null {
    const v = this.tomb.get(table, owner);
    return typeof v === 'number' ? v : null;
  }
}

const readers = new WeakMap<Database.Database, LineageReader>();
function readerFor(db: Database.Database): LineageReader {
  let r = readers.get(db);
  if (!r) {
    r = new LineageReader(db);
    readers.set(db, r);
  }
  return r;
}

function unavailable(path: string, isSchemaDefault: boolean): LineageEntry {
  return { path, status: 'unavailable', sourceLayer: null, sourceKind: null, opId: null, fileOp: null, explicit: false, isSchemaDefault };
}

function fromContext(path: string, c: CtxRow, explicit: boolean, isSchemaDefault: boolean): LineageEntry {
  const fileLayer = c.layer === 'schema' || c.layer === 'tweaks';
  return {
    path,
    status: 'resolved',
    sourceLayer: c.layer,
    sourceKind: 'operation',
    opId: fileLayer ? null : c.op_id,
    fileOp: fileLayer && c.file !== null ? { file: c.file, position: c.position ?? 1 } : null,
    explicit,
    isSchemaDefault,
  };
}

function schemaDefault(path: string): LineageEntry {
  return { path, status: 'resolved', sourceLayer: 'schema', sourceKind: 'schema-default', opId: null, fileOp: null, explicit: false, isSchemaDefault: true };
}

function columnLineage(reader: LineageReader, path: string, source: Extract<FieldSource, { kind: 'column' }>, value: SqlValue): LineageEntry {
  const dflt = columnDefault(source.table, source.column);
  const isDefault = dflt !== undefined && dflt === value;
  const entries = reader.rowEntries(source.table, source.rowid);
  const updated = entries.get(source.column);
  if (updated !== undefined) {
    const c = reader.context(updated);
    if (!c) return unavailable(path, isDefault);
    return fromContext(path, c, c.tbl === source.table, isDefault);
  }
  const inserted = entries.get('*');
  if (inserted === undefined) return unavailable(path, isDefault);
  const c = reader.context(inserted);
  if (!c) return unavailable(path, isDefault);
  const named = c.tbl === source.table && (c.cols === '*' || (c.cols !== null && c.cols.includes(`,${source.column},`)));
  if (named) return fromContext(path, c, true, isDefault);
  // The INSERT left the column to its default: no op wrote it.
  if (isDefault) return schemaDefault(path);
  return fromContext(path, c, false, isDefault);
}

function rowsLineage(reader: LineageReader, path: string, source: Extract<FieldSource, { kind: 'rows' }>, isEmpty: boolean): LineageEntry {
  let latest: number | null = null;
  for (const rowid of source.rowids) {
    for (const [col, ctx] of reader.rowEntries(source.table, rowid)) {
      if (col === '*' || !source.columns || source.columns.includes(col)) latest = latest === null ? ctx : Math.max(latest, ctx);
    }
  }
  if (source.owner !== null) {
    const t = reader.tombstone(source.table, source.owner);
    if (t !== null) latest = latest === null ? t : Math.max(latest, t);
  }
  if (latest === null) return isEmpty ? schemaDefault(path) : unavailable(path, false);
  const c = reader.context(latest);
  if (!c) return unavailable(path, isEmpty);
  return fromContext(path, c, c.tbl === source.table, isEmpty);
}

/**
 * Lineage of every leaf field of an entity read from `db`. With `ambiguous` (a pending conflict)
 * every entry is withheld: status ambiguous, no source claimed.
 */
export function entityLineage(
  db: Database.Database,
  model: EntityModel,
  data: unknown,
  sources: Map<string, FieldSource>,
  options: { ambiguous?: boolean } = {},
): LineageEntry[] {
  const reader = readerFor(db);
  return leaves(data, model.diffOptions).map(({ path, value }) => {
    const source = sources.get(path);
    let isDefault = false;
    let entry: LineageEntry;
    if (!source) {
      entry = unavailable(path, false);
    } else if (source.kind === 'column') {
      entry = columnLineage(reader, path, source, source.value);
    } else {
      const empty = Array.isArray(value) && value.length === 0;
      entry = rowsLineage(reader, path, source, empty && !source.columns);
    }
    isDefault = entry.isSchemaDefault;
    if (options.ambiguous) {
      return { path, status: 'ambiguous', sourceLayer: null, sourceKind: null, opId: null, fileOp: null, explicit: false, isSchemaDefault: isDefault };
    }
    return entry;
  });
}

