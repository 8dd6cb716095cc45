/**
 * Operation files of a PCD repository (`ops/N.name.sql`, `tweaks/*.sql`) and the operation model
 * shared by every layer.
 *
 * Inside a file, ops are delimited by marker comments
 *   -- --- BEGIN op <id> ( <verb> <entity_type> "<name>" )
 *   ...
 *   -- --- END op <id>
 * A file without markers is a single op. SQL outside markers in a marked file is kept as its own
 * op so nothing is silently dropped.
 */

/** Replay layers, in replay order. */
export const OP_LAYERS = ['schema', 'base', 'tweaks', 'user'] as const;
export type OpLayer = (typeof OP_LAYERS)[number];

/** What an op says it touches: from a marker `( verb type "name" )`, or supplied with a user op. */
export interface OpTarget {
  /** Marker entity type (e.g. custom_format, radarr_naming) or a portable entity type. */
  entityType: string;
  name: string;
  /** create, update, delete... when known. */
  verb?: string | null;
}

/** One operation as the replay engine runs it. */
export interface PcdOp {
  layer: OpLayer;
  /** Database op id: given by the caller for base and user ops; null for file-layer ops (schema, tweaks). */
  id: number | null;
  /** File-layer identity: file path and 1-based position of the op within the file. */
  file: string | null;
  position: number | null;
  /** Op id of the marker comment, when the file had one. */
  markerId?: string | null;
  target?: OpTarget | null;
  sql: string;
}

export interface OpFileHeaders {
  operation?: string;
  entity?: string;
  name?: string;
  exportedAt?: string;
  opIds?: string[];
}

export interface ParsedOp {
  file: string;
  /** 1-based position within the file. */
  position: number;
  markerId: string | null;
  target: OpTarget | null;
  sql: string;
}

export interface ParsedOpFile {
  file: string;
  /** Numeric prefix of the file name (`12.name.sql` -> 12), or null. */
  order: number | null;
  headers: OpFileHeaders;
  ops: ParsedOp[];
}

const BEGIN = /^--\s*---\s*BEGIN op\s+(\S+)(?:\s*\(\s*(\w+)\s+(\w+)\s+"(.*)"\s*\))?\s*$/;
const END = /^--\s*---\s*END op\s+(\S+)\s*$/;
const HEADER = /^--\s*@(\w+):\s*(.*?)\s*$/;

function hasSql(text: string): boolean {
  return text
    .split('\n')
    .some((line) => {
      const t = line.trim();
      return t !== '' && !t.startsWith('--');
    });
}

/** Numeric prefix of an op file name (`12.name.sql` -> 12, as Profilarr reads it), or null. */
export function opFileOrder(file: string): number | null {
  const base = file.split('/').pop() ?? file;
  const m = /^(\d+)\./.exec(base);
  return m ? Number(m[1]) : null;
}

/** Sorts op file names as Profilarr does: by numeric prefix (files without one last), then by name. */
export function sortOpFiles<T extends string | { file: string }>(files: readonly T[]): T[] {
  const name = (f: T) => (typeof f === 'string' ? f : f.file);
  return [...files].sort((a, b) => {
    const oa = opFileOrder(name(a));
    const ob = opFileOrder(name(b));
    if (oa !== ob) {
      if (oa === null) return 1;
      if (ob === null) return -1;
      return oa - ob;
    }
    return name(a).localeCompare(name(b));
  });
}

/** Splits one op file into its ops. */
export function parseOpFile(file: string, text: string): ParsedOpFile {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const headers: OpFileHeaders = {};
  const ops: ParsedOp[] = [];
  let open: { markerId: string; target: OpTarget | null; lines: string[] } | null = null;
  let loose: string[] = [];
  let sawMarker = false;

  const push = (sql: string, markerId: string | null, target: OpTarget | null) => {
    ops.push({ file, position: ops.length + 1, markerId, target, sql });
  };
  const flushLoose = () => {
    const sql = loose.join('\n');
    if (hasSql(sql)) push(sql.trim(), null, null);
    loose = [];
  };

  for (const line of lines) {
    if (open) {
      const end = END.exec(line);
      if (end && end[1] === open.markerId) {
        push(open.lines.join('\n').trim(), open.markerId, open.target);
        open = null;
      } else {
        open.lines.push(line);
      }
      continue;
    }
    const begin = BEGIN.exec(line);
    if (begin) {
      sawMarker = true;
      flushLoose();
      const target = begin[2] ? { verb: begin[2], entityType: begin[3], name: begin[4].replace(/\\"/g, '"') } : null;
      open = { markerId: begin[1], target, lines: [] };
      continue;
    }
    const header = HEADER.exec(line);
    if (header && ops.length === 0 && !sawMarker) {
      const [, key, value] = header;
      if (key === 'opIds') headers.opIds = value.split(',').map((s) => s.trim()).filter(Boolean);
      else if (key === 'operation' || key === 'entity' || key === 'name' || key === 'exportedAt') headers[key] = value;
    }
    if (!END.test(line)) loose.push(line);
  }
  // An unterminated marker runs to the end of the file.
  if (open) push(open.lines.join('\n').trim(), open.markerId, open.target);
  if (!sawMarker) {
    const sql = loose.join('\n');
    if (hasSql(sql)) push(sql, null, null);
  } else {
    flushLoose();
  }
  return { file, order: opFileOrder(file), headers, ops };
}
