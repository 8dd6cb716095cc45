/**
 * Splits SQL text into statements at top-level semicolons, respecting quoted strings, quoted
 * identifiers and comments. Returns offsets (one regular-expression match per statement body,
 * a character scan inside triggers and unclosed tokens), because op files
 * can be large (a PCD initial file is ~1.5 MB of INSERTs) and replay batches statements by slicing
 * the original text.
 */

const QUOTE_SINGLE = 39; // '
const QUOTE_DOUBLE = 34; // "
const BACKTICK = 96;
const BRACKET_OPEN = 91; // [
const DASH = 45;
const SLASH = 47;
const STAR = 42;
const SEMICOLON = 59;

/** Index just past the comment or quoted token starting at i, or -1 if none starts there. */
function skipToken(sql: string, i: number): number {
  const c = sql.charCodeAt(i);
  if (c === QUOTE_SINGLE || c === QUOTE_DOUBLE || c === BACKTICK) {
    const quote = sql[i];
    let j = i + 1;
    for (;;) {
      const k = sql.indexOf(quote, j);
      if (k < 0) return sql.length;
      if (sql.charCodeAt(k + 1) === c) {
        j = k + 2;
        continue;
      }
      return k + 1;
    }
  }
  if (c === BRACKET_OPEN) {
    const k = sql.indexOf(']', i + 1);
    return k < 0 ? sql.length : k + 1;
  }
  if (c === DASH && sql.charCodeAt(i + 1) === DASH) {
    const k = sql.indexOf('\n', i + 2);
    return k < 0 ? sql.length : k + 1;
  }
  if (c === SLASH && sql.charCodeAt(i + 1) === STAR) {
    const k = sql.indexOf('*/', i + 2);
    return k < 0 ? sql.length : k + 2;
  }
  return -1;
}

/** First index at or after i that is neither whitespace nor inside a comment. */
function skipBlank(sql: string, i: number, end: number): number {
  for (;;) {
    while (i < end && sql.charCodeAt(i) <= 32) i++;
    const c = sql.charCodeAt(i);
    if (i + 1 < end && ((c === DASH && sql.charCodeAt(i + 1) === DASH) || (c === SLASH && sql.charCodeAt(i + 1) === STAR))) {
      i = Math.min(skipToken(sql, i), end);
      continue;
    }
    return i;
  }
}

const LETTER_C = 0x63;
const CREATE_TRIGGER = /CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?TRIGGER\b/iy;
/** Characters that can end a statement or open a quoted token or comment (see skipToken). */
const SPECIAL = /[;'"`[\-/]/g;
/**
 * Up to 256 tokens of a statement body: runs of ordinary characters, closed quoted tokens and
 * comments (as skipToken reads them), and dashes and slashes that open no comment. It stops
 * before a semicolon, at the end of the text, or before a token that is never closed (which the
 * character loop then reads). Bounded, so that the regex's backtrack stack stays small however
 * long a statement is.
 */
const STATEMENT_BODY = /(?:[^;'"`[\-/]+|'[^']*'|"[^"]*"|`[^`]*`|\[[^\]]*\]|--[^\n]*\n?|\/\*[\s\S]*?\*\/|-(?!-)|\/(?!\*)){0,256}/y;

/** Index of the first semicolon, unclosed token or end at or after i, outside quotes and comments. */
function skipBody(sql: string, i: number): number {
  for (;;) {
    STATEMENT_BODY.lastIndex = i;
    STATEMENT_BODY.test(sql);
    if (STATEMENT_BODY.lastIndex === i) return i;
    i = STATEMENT_BODY.lastIndex;
  }
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * [start, end) offsets of each statement: start skips leading whitespace and comments, end is
 * the terminating semicolon (or the end of the text). Empty statements are omitted. The body of a
 * CREATE TRIGGER (`BEGIN ...; ...; END`) stays one statement (CASE ... END pairs inside it are
 * counted, so only the trigger's own END closes it).
 */
export function statementRanges(sql: string): [number, number][] {
  const bounds = statementBounds(sql);
  const out: [number, number][] = [];
  for (let k = 0; k < bounds.length; k += 2) out.push([bounds[k], bounds[k + 1]]);
  return out;
}

/** statementRanges as one flat array (start, end, start, end, ...): no array per statement. */
export function statementBounds(sql: string): number[] {
  const out: number[] = [];
  const n = sql.length;
  let start = skipBlank(sql, 0, n);
  let i = start;
  // Trigger statements: -1 = not a trigger; otherwise the CASE nesting depth, until END closes it.
  let trigger = -1;
  let triggerClosed = false;
  const begin = (at: number) => {
    // Only a statement starting with C can be a CREATE TRIGGER (the pattern is tried at `at` only).
    if ((sql.charCodeAt(at) | 0x20) === LETTER_C) {
      CREATE_TRIGGER.lastIndex = at;
      trigger = CREATE_TRIGGER.test(sql) ? 0 : -1;
    } else trigger = -1;
    triggerClosed = false;
  };
  begin(start);
  while (i < n) {
    if (trigger < 0) {
      // Outside triggers only semicolons, quotes and comments matter: jump to the statement's end.
      i = skipBody(sql, i);
      if (i >= n) break;
    }
    const c = sql.charCodeAt(i);
    if (c === SEMICOLON && (trigger < 0 || triggerClosed)) {
      if (i > start) out.push(start, i);
      start = skipBlank(sql, i + 1, n);
      i = start;
      begin(start);
      continue;
    }
    if (trigger >= 0 && isWordChar(c) && (i === 0 || !isWordChar(sql.charCodeAt(i - 1)))) {
      let j = i + 1;
      while (j < n && isWordChar(sql.charCodeAt(j))) j++;
      const word = j - i === 3 || j - i === 4 ? sql.slice(i, j).toUpperCase() : '';
      if (word === 'CASE') trigger++;
      else if (word === 'END') {
        if (trigger > 0) trigger--;
        else triggerClosed = true;
      }
      i = j;
      continue;
    }
    if (c === QUOTE_SINGLE || c === QUOTE_DOUBLE || c === BACKTICK || c === BRACKET_OPEN || c === DASH || c === SLASH) {
      const next = skipToken(sql, i);
      if (next >= 0) {
        i = next;
        continue;
      }
    }
    i++;
  }
  if (start < n) out.push(start, n);
  return out;
}

/** Statement texts (without terminating semicolons and leading comments). */
export function splitStatements(sql: string): string[] {
  return statementRanges(sql).map(([s, e]) => sql.slice(s, e).trimEnd());
}
