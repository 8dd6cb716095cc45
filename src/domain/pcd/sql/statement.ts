/**
 * Just enough SQL understanding for replay: what kind of statement, which table, which columns an
 * INSERT names or an UPDATE sets, and (for UPDATE/DELETE) the literal assignments and the
 * equality conjuncts of the WHERE clause. Anything more complex is reported as not understood
 * and the caller falls back to conservative behaviour.
 */
import type { SqlValue } from '../schema/registry';

type TokenType = 'word' | 'ident' | 'string' | 'number' | 'punct';
interface Token {
  type: TokenType;
  value: string;
}

class Lexer {
  private i = 0;
  constructor(private readonly sql: string) {}

  next(): Token | null {
    const s = this.sql;
    const n = s.length;
    for (;;) {
      while (this.i < n && s.charCodeAt(this.i) <= 32) this.i++;
      if (this.i >= n) return null;
      if (s.startsWith('--', this.i)) {
        const k = s.indexOf('\n', this.i);
        this.i = k < 0 ? n : k + 1;
        continue;
      }
      if (s.startsWith('/*', this.i)) {
        const k = s.indexOf('*/', this.i + 2);
        this.i = k < 0 ? n : k + 2;
        continue;
      }
      break;
    }
    const start = this.i;
    const c = s[start];
    if (c === "'" || c === '"' || c === '`') {
      let j = start + 1;
      let value = '';
      for (;;) {
        const k = s.indexOf(c, j);
        if (k < 0) {
          value += s.slice(j);
          this.i = n;
          break;
        }
        value += s.slice(j, k);
        if (s[k + 1] === c) {
          value += c;
          j = k + 2;
          continue;
        }
        this.i = k + 1;
        break;
      }
      return { type: c === "'" ? 'string' : 'ident', value };
    }
    if (c === '[') {
      const k = s.indexOf(']', start + 1);
      this.i = k < 0 ? n : k + 1;
      return { type: 'ident', value: s.slice(start + 1, k < 0 ? n : k) };
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = start + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(s[j])) j++;
      this.i = j;
      return { type: 'word', value: s.slice(start, j) };
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(s[start + 1] ?? ''))) {
      const m = /^(0x[0-9a-fA-F]+|\d*\.?\d+(?:[eE][+-]?\d+)?)/.exec(s.slice(start, start + 64));
      const len = m ? m[0].length : 1;
      this.i = start + len;
      return { type: 'number', value: s.slice(start, start + len) };
    }
    const two = s.slice(start, start + 2);
    if (['<>', '!=', '<=', '>=', '==', '||'].includes(two)) {
      this.i += 2;
      return { type: 'punct', value: two };
    }
    this.i++;
    return { type: 'punct', value: c };
  }
}

const isWord = (t: Token | null, ...words: string[]) => t !== null && t.type === 'word' && words.includes(t.value.toUpperCase());
const isPunct = (t: Token | null, p: string) => t !== null && t.type === 'punct' && t.value === p;
const isName = (t: Token | null) => t !== null && (t.type === 'word' || t.type === 'ident');

export type StatementKind = 'insert' | 'update' | 'delete' | 'other';

export interface StatementInfo {
  kind: StatementKind;
  /** Target table, lower-cased; null when not understood. */
  table: string | null;
  /** INSERT: named columns, or '*' when the statement has no column list. Otherwise null. */
  insertColumns: string[] | '*' | null;
}

/** Reads a possibly schema-qualified table name; returns it lower-cased, or null. */
function readTable(lx: Lexer, first: Token | null): { table: string | null; after: Token | null } {
  if (!isName(first)) return { table: null, after: first };
  let name = first!.value;
  let t = lx.next();
  if (isPunct(t, '.')) {
    const second = lx.next();
    if (!isName(second)) return { table: null, after: second };
    name = second!.value;
    t = lx.next();
  }
  return { table: name.toLowerCase(), after: t };
}

/** Cheap classification reading only the statement's head. */
export function describeStatement(sql: string): StatementInfo {
  const lx = new Lexer(sql);
  let t = lx.next();
  if (isWord(t, 'INSERT', 'REPLACE')) {
    const replace = isWord(t, 'REPLACE');
    t = lx.next();
    if (!replace && isWord(t, 'OR')) {
      lx.next();
      t = lx.next();
    }
    if (!isWord(t, 'INTO')) return { kind: 'insert', table: null, insertColumns: null };
    const { table, after } = readTable(lx, lx.next());
    t = after;
    if (isWord(t, 'AS')) {
      lx.next();
      t = lx.next();
    }
    if (!isPunct(t, '(')) return { kind: 'insert', table, insertColumns: isWord(t, 'DEFAULT') ? [] : '*' };
    const cols: string[] = [];
    for (;;) {
      const c = lx.next();
      if (!isName(c)) return { kind: 'insert', table, insertColumns: null };
      cols.push(c!.value.toLowerCase());
      const sep = lx.next();
      if (isPunct(sep, ')')) break;
      if (!isPunct(sep, ',')) return { kind: 'insert', table, insertColumns: null };
    }
    return { kind: 'insert', table, insertColumns: cols };
  }
  if (isWord(t, 'UPDATE')) {
    t = lx.next();
    if (isWord(t, 'OR')) {
      lx.next();
      t = lx.next();
    }
    return { kind: 'update', table: readTable(lx, t).table, insertColumns: null };
  }
  if (isWord(t, 'DELETE')) {
    t = lx.next();
    if (!isWord(t, 'FROM')) return { kind: 'delete', table: null, insertColumns: null };
    return { kind: 'delete', table: readTable(lx, lx.next()).table, insertColumns: null };
  }
  return { kind: 'other', table: null, insertColumns: null };
}

/** Marker for an assignment whose value is an expression rather than a literal. */
export const NOT_LITERAL: unique symbol = Symbol('not-literal');

export interface Conjunct {
  column: string;
  /** 'eq' compares to value; 'null'/'notnull' are IS [NOT] NULL tests. */
  test: 'eq' | 'null' | 'notnull';
  value: SqlValue;
}

export interface WriteDetail {
  table: string;
  /** UPDATE assignments (column -> literal or NOT_LITERAL); null when not understood; empty for DELETE. */
  set: Map<string, SqlValue | typeof NOT_LITERAL> | null;
  /** AND-ed WHERE conjuncts; null when the clause is anything else; [] when there is no WHERE. */
  where: Conjunct[] | null;
}

/** Reads one literal; returns undefined when the tokens are not a single literal. */
function literal(t: Token | null, lx: Lexer): { value: SqlValue; next: Token | null } | undefined {
  if (t === null) return undefined;
  if (t.type === 'string') return { value: t.value, next: lx.next() };
  if (t.type === 'number') return { value: Number(t.value), next: lx.next() };
  if (isWord(t, 'NULL')) return { value: null, next: lx.next() };
  if (isWord(t, 'TRUE')) return { value: 1, next: lx.next() };
  if (isWord(t, 'FALSE')) return { value: 0, next: lx.next() };
  if (isPunct(t, '-') || isPunct(t, '+')) {
    const num = lx.next();
    if (num?.type !== 'number') return undefined;
    return { value: (t.value === '-' ? -1 : 1) * Number(num.value), next: lx.next() };
  }
  return undefined;
}

/** Reads a column reference (optionally qualified); returns its lower-cased name. */
function columnRef(t: Token | null, lx: Lexer): { column: string; next: Token | null } | undefined {
  if (!isName(t)) return undefined;
  let column = t!.value;
  let next = lx.next();
  if (isPunct(next, '.')) {
    const c = lx.next();
    if (!isName(c)) return undefined;
    column = c!.value;
    next = lx.next();
  }
  return { column: column.toLowerCase(), next };
}

const END_OF_WHERE = ['RETURNING', 'ORDER', 'LIMIT'];

function parseWhere(t: Token | null, lx: Lexer): Conjunct[] | null {
  const out: Conjunct[] = [];
  for (;;) {
    const lhs = columnRef(t, lx);
    let conj: Conjunct;
    if (lhs) {
      t = lhs.next;
      if (isPunct(t, '=') || isPunct(t, '==')) {
        const rhs = literal(lx.next(), lx);
        if (!rhs || rhs.value === null) return null;
        conj = { column: lhs.column, test: 'eq', value: rhs.value };
        t = rhs.next;
      } else if (isWord(t, 'IS')) {
        t = lx.next();
        let not = false;
        if (isWord(t, 'NOT')) {
          not = true;
          t = lx.next();
        }
        if (!isWord(t, 'NULL')) return null;
        conj = { column: lhs.column, test: not ? 'notnull' : 'null', value: null };
        t = lx.next();
      } else {
        return null;
      }
    } else {
      const lit = literal(t, lx);
      if (!lit || lit.value === null || !(isPunct(lit.next, '=') || isPunct(lit.next, '=='))) return null;
      const rhs = columnRef(lx.next(), lx);
      if (!rhs) return null;
      conj = { column: rhs.column, test: 'eq', value: lit.value };
      t = rhs.next;
    }
    out.push(conj);
    if (t === null || isPunct(t, ';') || isWord(t, ...END_OF_WHERE)) return out;
    if (!isWord(t, 'AND')) return null;
    t = lx.next();
  }
}

/** Full parse of an UPDATE or DELETE; null when the statement is neither or its head is not understood. */
export function parseWrite(sql: string): WriteDetail | null {
  const lx = new Lexer(sql);
  let t = lx.next();
  if (isWord(t, 'DELETE')) {
    if (!isWord(lx.next(), 'FROM')) return null;
    const { table, after } = readTable(lx, lx.next());
    if (!table) return null;
    if (after === null || isWord(after, ...END_OF_WHERE)) return { table, set: new Map(), where: [] };
    if (!isWord(after, 'WHERE')) return { table, set: new Map(), where: null };
    return { table, set: new Map(), where: parseWhere(lx.next(), lx) };
  }
  if (!isWord(t, 'UPDATE')) return null;
  t = lx.next();
  if (isWord(t, 'OR')) {
    lx.next();
    t = lx.next();
  }
  const { table, after } = readTable(lx, t);
  if (!table || !isWord(after, 'SET')) return null;
  const set = new Map<string, SqlValue | typeof NOT_LITERAL>();
  t = lx.next();
  let setUnderstood = true;
  for (;;) {
    const col = columnRef(t, lx);
    if (!col || !isPunct(col.next, '=')) {
      setUnderstood = false;
      break;
    }
    t = lx.next();
    const lit = literal(t, lx);
    if (lit && (lit.next === null || isPunct(lit.next, ',') || isWord(lit.next, 'WHERE', 'FROM', ...END_OF_WHERE))) {
      set.set(col.column, lit.value);
      t = lit.next;
    } else {
      // Skip the expression up to the next top-level comma or WHERE.
      set.set(col.column, NOT_LITERAL);
      let depth = 0;
      while (t !== null) {
        if (isPunct(t, '(')) depth++;
        else if (isPunct(t, ')')) depth--;
        else if (depth === 0 && (isPunct(t, ',') || isWord(t, 'WHERE', 'FROM', ...END_OF_WHERE))) break;
        t = lx.next();
      }
    }
    if (isPunct(t, ',')) {
      t = lx.next();
      continue;
    }
    break;
  }
  if (!setUnderstood) return { table, set: null, where: null };
  if (t === null || isWord(t, ...END_OF_WHERE)) return { table, set, where: [] };
  if (!isWord(t, 'WHERE')) return { table, set, where: null };
  return { table, set, where: parseWhere(lx.next(), lx) };
}

/** SQL text of a value: quoted string, number, or NULL. */
export function sqlLiteral(value: SqlValue | boolean): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('non-finite number in SQL literal');
    return String(value);
  }
  return `'${value.replace(/'/g, "''")}'`;
}

/** Double-quoted identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
