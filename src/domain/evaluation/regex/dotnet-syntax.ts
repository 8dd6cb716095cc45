/**
 * A parser of .NET regular expression syntax (System.Text.RegularExpressions) into a small AST.
 *
 * ECMAScript parsers (regjsparser, used by regexpu-core) read JavaScript syntax only; .NET differs
 * exactly where it matters here (a `]` first in a class, `(?'n')`, `\A`/`\Z`/`\z`, unscoped inline
 * options, `{` as a literal, the `x` option), so the .NET syntax is read here and translated by
 * ./translate.ts. A construct that JavaScript cannot express faithfully is refused with a reason.
 */

import { NAMED_BLOCKS } from './named-blocks';

export interface Options {
  i: boolean;
  m: boolean;
  s: boolean;
  n: boolean;
  x: boolean;
}

export type ClassItem = { kind: 'range'; lo: number; hi: number } | { kind: 'set'; set: SetKind } | { kind: 'prop'; name: string; negated: boolean };

export type SetKind = 'w' | 'W' | 'd' | 'D' | 's' | 'S';

export type AnchorKind = 'start' | 'end' | 'bol' | 'eol' | 'A' | 'Z' | 'z' | 'b' | 'B' | 'G';

export type GroupKind = 'capture' | 'group' | 'atomic' | 'lookahead' | 'negLookahead' | 'lookbehind' | 'negLookbehind';

export type Node =
  | { t: 'alt'; alts: Node[] }
  | { t: 'seq'; items: Node[] }
  | { t: 'char'; cp: number; ci: boolean }
  | { t: 'any'; singleline: boolean }
  | { t: 'class'; negated: boolean; items: ClassItem[]; ci: boolean; subtract: ClassNode | null }
  | { t: 'set'; set: SetKind }
  | { t: 'prop'; name: string; negated: boolean }
  | { t: 'group'; kind: GroupKind; body: Node; name: string | null; number: number | null }
  | { t: 'quant'; body: Node; min: number; max: number; lazy: boolean }
  | { t: 'anchor'; kind: AnchorKind; multiline: boolean }
  | { t: 'backref'; ref: number | string; ci: boolean }
  | { t: 'cond'; test: CondTest; yes: Node; no: Node; offset: number };

/**
 * What a conditional tests: whether a group has captured, or whether an assertion holds at the
 * current position ((?(expression)...) is a positive lookahead; (?(?!x)...) the assertion written).
 */
export type CondTest = { kind: 'group'; ref: number | string } | { kind: 'assert'; assertion: GroupNode };

export type GroupNode = Extract<Node, { t: 'group' }>;
export type ClassNode = Extract<Node, { t: 'class' }>;
export type CondNode = Extract<Node, { t: 'cond' }>;
export type BackrefNode = Extract<Node, { t: 'backref' }>;

/** A pattern .NET would refuse, or a construct that has no faithful JavaScript translation. */
export class RegexRefusal extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(`${reason} (at offset ${offset})`);
  }
}

export interface ParsedPattern {
  root: Node;
  /** Capturing groups in order of their opening parenthesis. */
  groups: GroupNode[];
  backrefs: BackrefNode[];
  conditionals: CondNode[];
  /** Constructs of the pattern that .NET reads differently from JavaScript, in order of first use (./dialect.ts). */
  differences: DialectDifference[];
}

/**
 * Constructs whose meaning differs between .NET and JavaScript (docs/evaluation.md, "Regex
 * translation"); ./dialect.ts says how.
 */
export const DIALECT_DIFFERENCES = [
  'inlineOptions',
  'comment',
  'unicodeWordDigit',
  'wordBoundary',
  'whitespace',
  'dot',
  'endAnchor',
  'stringAnchor',
  'quotedGroupName',
  'groupNumbering',
  'backreference',
  'atomicGroup',
  'literalBrace',
  'bracketFirstInClass',
  'escape',
  'unicodeCategory',
  'unicodeBlock',
  'classSubtraction',
  'conditional',
  'contiguousMatch',
] as const;
export type DialectDifference = (typeof DIALECT_DIFFERENCES)[number];

const WORD_CHAR = /[\p{L}\p{Mn}\p{Nd}\p{Pc}]/u;
const HEX = /^[0-9a-fA-F]$/;
const CATEGORY = /^(?:L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfson]?)$/;

const cp = (s: string) => s.codePointAt(0)!;

class Parser {
  private pos = 0;
  private readonly groups: GroupNode[] = [];
  private readonly backrefs: BackrefNode[] = [];
  private readonly conditionals: CondNode[] = [];
  /** Conditionals on a bare name, decided once every group is known: a group test, or else an expression. */
  private readonly namedTests: { node: CondNode; name: string; expression: GroupNode }[] = [];
  private readonly differences = new Set<DialectDifference>();

  constructor(
    private readonly src: string,
    private opts: Options,
  ) {}

  parse(): ParsedPattern {
    const root = this.alternation();
    if (this.pos < this.src.length) this.fail(this.src[this.pos] === ')' ? 'too many )' : 'unexpected character');
    numberGroups(this.groups);
    for (const { node, name, expression } of this.namedTests) {
      const isGroup = this.groups.some((g) => g.name === name);
      node.test = isGroup ? { kind: 'group', ref: name } : { kind: 'assert', assertion: expression };
    }
    for (const c of this.conditionals) {
      const test = c.test;
      if (test.kind === 'group' && typeof test.ref === 'number' && !this.groups.some((g) => g.number === test.ref)) {
        throw new RegexRefusal(`(?(${test.ref})) reference to undefined group`, c.offset);
      }
    }
    const named = this.groups.filter((g) => g.name !== null);
    if (named.length > 0 && (named.length < this.groups.length || new Set(named.map((g) => g.name)).size < named.length)) this.differences.add('groupNumbering');
    if (this.backrefs.length > 0) this.differences.add('backreference');
    return { root, groups: this.groups, backrefs: this.backrefs, conditionals: this.conditionals, differences: [...this.differences] };
  }

  private fail(reason: string): never {
    throw new RegexRefusal(reason, this.pos);
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  private eat(s: string): boolean {
    if (this.src.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }

  /** Whitespace and `#` comments are skipped outside classes with the x option. */
  private skipIgnored(): void {
    for (;;) {
      if (this.opts.x) {
        if (this.peek() === '#' || /\s/.test(this.peek() ?? '')) this.differences.add('comment');
        while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
        if (this.peek() === '#') {
          while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
          continue;
        }
      }
      if (this.src.startsWith('(?#', this.pos)) {
        this.differences.add('comment');
        const end = this.src.indexOf(')', this.pos);
        if (end < 0) this.fail('unterminated (?#...) comment');
        this.pos = end + 1;
        continue;
      }
      return;
    }
  }

  private alternation(): Node {
    const alts: Node[] = [this.sequence()];
    while (this.eat('|')) alts.push(this.sequence());
    return alts.length === 1 ? alts[0] : { t: 'alt', alts };
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (;;) {
      this.skipIgnored();
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') break;
      const atom = this.atom();
      if (atom === null) continue; // an options-only group (?i) changes what follows
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0] : { t: 'seq', items };
  }

  private quantified(atom: Node): Node {
    this.skipIgnored();
    const start = this.pos;
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!m) return atom; // .NET reads a `{` that starts no quantifier as a literal
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (max < min) this.fail('illegal {x,y} with x > y');
      this.pos += m[0].length - 1;
    } else return atom;
    this.pos++;
    const lazy = this.eat('?');
    if (atom.t === 'anchor' || (atom.t === 'group' && atom.kind !== 'capture' && atom.kind !== 'group' && atom.kind !== 'atomic')) {
      throw new RegexRefusal('a quantifier on an assertion has no JavaScript equivalent', start);
    }
    const next = this.peek();
    if (next === '*' || next === '+' || next === '?' || (next === '{' && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.pos)))) {
      this.fail('nested quantifier');
    }
    return { t: 'quant', body: atom, min, max, lazy };
  }

  private atom(): Node | null {
    const c = this.src[this.pos];
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '.':
        this.pos++;
        this.differences.add('dot');
        return { t: 'any', singleline: this.opts.s };
      case '^':
        this.pos++;
        return { t: 'anchor', kind: 'start', multiline: this.opts.m };
      case '$':
        this.pos++;
        this.differences.add('endAnchor');
        return { t: 'anchor', kind: 'end', multiline: this.opts.m };
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        this.fail('quantifier following nothing');
      // falls through (fail never returns)
      default: {
        const ch = String.fromCodePoint(cp(this.src.slice(this.pos)));
        this.pos += ch.length;
        if (ch === '{' || ch === '}') this.differences.add('literalBrace');
        return { t: 'char', cp: cp(ch), ci: this.opts.i };
      }
    }
  }

  private group(): Node | null {
    const start = this.pos;
    this.pos++; // (
    let kind: GroupKind = this.opts.n ? 'group' : 'capture';
    let name: string | null = null;
    const saved = this.opts;
    if (this.eat('?')) {
      if (this.eat(':')) kind = 'group';
      else if (this.eat('>')) {
        kind = 'atomic';
        this.differences.add('atomicGroup');
      }
      else if (this.eat('=')) kind = 'lookahead';
      else if (this.eat('!')) kind = 'negLookahead';
      else if (this.eat('<=')) kind = 'lookbehind';
      else if (this.eat('<!')) kind = 'negLookbehind';
      else if (this.peek() === '<' || this.peek() === "'") {
        const close = this.peek() === '<' ? '>' : "'";
        if (close === "'") this.differences.add('quotedGroupName');
        this.pos++;
        const m = /^([\p{L}\p{Mn}\p{Nd}\p{Pc}]+)?(-([\p{L}\p{Mn}\p{Nd}\p{Pc}]+))?/u.exec(this.src.slice(this.pos))!;
        if (m[2]) throw new RegexRefusal('balancing groups (?<name1-name2>...) have no JavaScript equivalent', start);
        if (!m[1]) this.fail('invalid group name');
        this.pos += m[0].length;
        if (!this.eat(close)) this.fail('invalid group name');
        name = m[1];
        if (/^\d+$/.test(name) && Number(name) === 0) this.fail('capture group number 0 is reserved');
        kind = 'capture';
      } else if (this.peek() === '(') {
        const node = this.conditional(start);
        this.opts = saved;
        return node;
      } else {
        const m = /^([imnsx]*)(?:-([imnsx]*))?([:)])/.exec(this.src.slice(this.pos));
        if (!m) this.fail('unrecognized grouping construct');
        this.pos += m[0].length;
        this.differences.add('inlineOptions');
        const next = { ...this.opts };
        for (const o of m[1]) next[o as keyof Options] = true;
        for (const o of m[2] ?? '') next[o as keyof Options] = false;
        if (m[3] === ')') {
          // (?imnsx-imnsx): applies to the rest of the enclosing group.
          this.opts = next;
          return null;
        }
        this.opts = next;
        kind = 'group';
      }
    }
    const body = this.alternation();
    if (!this.eat(')')) throw new RegexRefusal('not enough )', start);
    this.opts = saved;
    const node: GroupNode = { t: 'group', kind, body, name, number: null };
    if (kind === 'capture') this.groups.push(node);
    return node;
  }

  /** (?(1)yes|no), (?(name)yes|no), (?(expression)yes|no); the position is at the condition's "(". */
  private conditional(start: number): Node {
    this.differences.add('conditional');
    const node: CondNode = { t: 'cond', test: { kind: 'group', ref: 0 }, yes: { t: 'seq', items: [] }, no: { t: 'seq', items: [] }, offset: start };
    const rest = this.src.slice(this.pos + 1);
    const num = /^(\d+)\)/.exec(rest);
    const name = /^([\p{L}\p{Mn}\p{Nd}\p{Pc}]+)\)/u.exec(rest);
    if (num) {
      node.test = { kind: 'group', ref: Number(num[1]) };
      this.pos += 1 + num[0].length;
    } else if (/^\?(?:=|!|<=|<!)/.test(rest)) {
      // (?(?=x)...), (?(?!x)...) and the lookbehinds: the assertion as written.
      const assertion = this.group();
      if (assertion === null || assertion.t !== 'group') this.fail('illegal conditional (?(...)) expression');
      node.test = { kind: 'assert', assertion };
    } else {
      // Any other expression is a zero-width positive lookahead; a bare name is a group test when the pattern has that group.
      this.pos++;
      const groupsBefore = this.groups.length;
      const body = this.alternation();
      if (!this.eat(')')) throw new RegexRefusal('not enough )', start);
      const assertion: GroupNode = { t: 'group', kind: 'lookahead', body, name: null, number: null };
      if (this.groups.length > groupsBefore) throw new RegexRefusal('a conditional (?(expression)yes|no) whose expression captures a group is not translated', start);
      node.test = { kind: 'assert', assertion };
      if (name) this.namedTests.push({ node, name: name[1], expression: assertion });
    }
    const branches = this.alternation();
    if (!this.eat(')')) throw new RegexRefusal('not enough )', start);
    const alts = branches.t === 'alt' ? branches.alts : [branches];
    if (alts.length > 2) throw new RegexRefusal('too many | in (?()|)', start);
    node.yes = alts[0];
    if (alts.length === 2) node.no = alts[1];
    this.conditionals.push(node);
    return node;
  }

  private escape(): Node {
    const start = this.pos;
    this.pos++; // backslash
    const c = this.src[this.pos];
    if (c === undefined) this.fail('illegal \\ at end of pattern');
    switch (c) {
      case 'b':
      case 'B':
        this.pos++;
        this.differences.add('wordBoundary');
        return { t: 'anchor', kind: c, multiline: false };
      case 'A':
      case 'Z':
      case 'z':
        this.pos++;
        this.differences.add(c === 'Z' ? 'endAnchor' : 'stringAnchor');
        return { t: 'anchor', kind: c, multiline: false };
      case 'G':
        // One IsMatch has no previous match: \G is where the search started, the start of the text.
        this.pos++;
        this.differences.add('contiguousMatch');
        return { t: 'anchor', kind: 'G', multiline: false };
      case 'w':
      case 'W':
      case 'd':
      case 'D':
      case 's':
      case 'S':
        this.pos++;
        this.differences.add(c === 's' || c === 'S' ? 'whitespace' : 'unicodeWordDigit');
        return { t: 'set', set: c };
      case 'p':
      case 'P': {
        const p = this.property();
        return 'ranges' in p ? { t: 'class', negated: false, items: p.ranges, ci: this.opts.i, subtract: null } : { t: 'prop', ...p };
      }
      case 'k': {
        this.pos++;
        const m = /^(?:<([^>]+)>|'([^']+)')/.exec(this.src.slice(this.pos));
        if (!m) this.fail('malformed \\k<...> named back reference');
        this.pos += m[0].length;
        const ref = m[1] ?? m[2];
        const node: BackrefNode = { t: 'backref', ref: /^\d+$/.test(ref) ? Number(ref) : ref, ci: this.opts.i };
        this.backrefs.push(node);
        return node;
      }
      default:
        if (c >= '1' && c <= '9') {
          const m = /^\d+/.exec(this.src.slice(this.pos))!;
          this.pos += m[0].length;
          const node: BackrefNode = { t: 'backref', ref: Number(m[0]), ci: this.opts.i };
          this.backrefs.push(node);
          return node;
        }
        return { t: 'char', cp: this.charEscape(), ci: this.opts.i };
    }
  }

  /** \p{Category} or \p{IsBlock}; a named block is the range it names (so IgnoreCase extends it, as .NET does). */
  private property(): { name: string; negated: boolean } | { ranges: ClassItem[] } {
    const negated = this.src[this.pos] === 'P';
    this.pos++;
    const m = /^\{([A-Za-z0-9_-]+)\}/.exec(this.src.slice(this.pos));
    if (!m) this.fail('malformed \\p{X} character escape');
    const block = NAMED_BLOCKS.get(m[1]);
    if (block) {
      if (block[0] >= 0xd800 && block[1] <= 0xdfff) {
        throw new RegexRefusal(`the surrogate block \\p{${m[1]}} is not translated (JavaScript matches whole characters, not UTF-16 halves)`, this.pos);
      }
      this.differences.add('unicodeBlock');
      this.pos += m[0].length;
      const [lo, hi] = block;
      if (!negated) return { ranges: [{ kind: 'range', lo, hi }] };
      const ranges: ClassItem[] = [];
      if (lo > 0) ranges.push({ kind: 'range', lo: 0, hi: lo - 1 });
      if (hi < 0xffff) ranges.push({ kind: 'range', lo: hi + 1, hi: 0xffff });
      return { ranges };
    }
    if (!CATEGORY.test(m[1])) this.fail(`unknown property '${m[1]}' (not a .NET Unicode category or named block)`);
    this.differences.add('unicodeCategory');
    this.pos += m[0].length;
    // With IgnoreCase .NET reads \p{Lu}, \p{Ll} and \p{Lt} as all three (Cased_Letter, LC).
    if (this.opts.i && (m[1] === 'Lu' || m[1] === 'Ll' || m[1] === 'Lt')) return { name: 'LC', negated };
    return { name: m[1], negated };
  }

  /** A single-character escape (after the backslash); the position ends after it. */
  private charEscape(inClass = false): number {
    const c = this.src[this.pos];
    this.pos++;
    switch (c) {
      case 't':
        return 9;
      case 'n':
        return 10;
      case 'v':
        return 11;
      case 'f':
        return 12;
      case 'r':
        return 13;
      case 'a':
      case 'e':
        this.differences.add('escape');
        return c === 'a' ? 7 : 27;
      case 'b':
        if (inClass) return 8;
        break;
      case '0': {
        this.differences.add('escape');
        const m = /^[0-7]{0,2}/.exec(this.src.slice(this.pos))!;
        this.pos += m[0].length;
        return parseInt(`0${m[0]}`, 8);
      }
      case 'x':
      case 'u': {
        const n = c === 'x' ? 2 : 4;
        const hex = this.src.slice(this.pos, this.pos + n);
        if (hex.length !== n || ![...hex].every((h) => HEX.test(h))) this.fail(`insufficient hex digits after \\${c}`);
        this.pos += n;
        return parseInt(hex, 16);
      }
      case 'c': {
        const l = this.src[this.pos];
        if (!l || !/[A-Za-z@[\\\]^_]/.test(l)) this.fail('unrecognized control character');
        this.pos++;
        return l.toUpperCase().charCodeAt(0) % 32;
      }
      default:
        break;
    }
    if (inClass && c >= '1' && c <= '9') {
      // Inside a class .NET reads \1..\7 as octal.
      this.pos--;
      const m = /^[0-7]{1,3}/.exec(this.src.slice(this.pos));
      if (m) {
        this.differences.add('escape');
        this.pos += m[0].length;
        return parseInt(m[0], 8);
      }
    }
    const ch = String.fromCodePoint(cp(this.src.slice(this.pos - 1)));
    this.pos += ch.length - 1;
    if (WORD_CHAR.test(ch)) {
      this.pos -= ch.length;
      this.fail(`unrecognized escape sequence \\${ch}`);
    }
    return cp(ch);
  }

  private charClass(): ClassNode {
    const start = this.pos;
    this.pos++; // [
    const negated = this.eat('^');
    const items: ClassItem[] = [];
    let subtract: ClassNode | null = null;
    let first = true;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) throw new RegexRefusal('unterminated [] set', start);
      if (c === ']' && first) this.differences.add('bracketFirstInClass');
      if (c === ']' && !first) {
        this.pos++;
        break;
      }
      if (c === '-' && !first && this.src[this.pos + 1] === '[') {
        // [base-[excluded]]: the subtraction is the last thing in the class.
        this.differences.add('classSubtraction');
        this.pos++;
        subtract = this.charClass();
        if (this.src[this.pos] !== ']') this.fail('a subtraction must be the last element in a character class');
        this.pos++;
        break;
      }
      first = false;
      const lo = this.classAtom();
      if (lo.length === 1 && lo[0].kind === 'range' && lo[0].lo === lo[0].hi && this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']' && this.src[this.pos + 1] !== undefined) {
        if (this.src[this.pos + 1] === '[') {
          items.push(...lo);
          continue; // the subtraction, on the next turn
        }
        this.pos++;
        const hi = this.classAtom();
        if (hi.length !== 1 || hi[0].kind !== 'range' || hi[0].lo !== hi[0].hi) this.fail('a range in a [] set cannot end with a class escape');
        if (hi[0].lo < lo[0].lo) this.fail('[x-y] range in reverse order');
        items.push({ kind: 'range', lo: lo[0].lo, hi: hi[0].lo });
        continue;
      }
      items.push(...lo);
    }
    return { t: 'class', negated, items, ci: this.opts.i, subtract };
  }

  private classAtom(): ClassItem[] {
    const c = this.src[this.pos];
    if (c !== '\\') {
      const ch = String.fromCodePoint(cp(this.src.slice(this.pos)));
      this.pos += ch.length;
      return [{ kind: 'range', lo: cp(ch), hi: cp(ch) }];
    }
    this.pos++;
    const e = this.src[this.pos];
    if (e === undefined) this.fail('illegal \\ at end of pattern');
    if ('wWdDsS'.includes(e)) {
      this.pos++;
      this.differences.add(e === 's' || e === 'S' ? 'whitespace' : 'unicodeWordDigit');
      return [{ kind: 'set', set: e as SetKind }];
    }
    if (e === 'p' || e === 'P') {
      const p = this.property();
      return 'ranges' in p ? p.ranges : [{ kind: 'prop', ...p }];
    }
    const code = this.charEscape(true);
    return [{ kind: 'range', lo: code, hi: code }];
  }
}

/**
 * .NET numbering: unnamed groups first, left to right; then named groups in order of first
 * appearance (a numeric name is that number; a repeated name is the same group).
 */
function numberGroups(groups: GroupNode[]): void {
  let next = 1;
  for (const g of groups) if (g.name === null) g.number = next++;
  const byName = new Map<string, number>();
  for (const g of groups) {
    if (g.name === null) continue;
    if (/^\d+$/.test(g.name)) {
      g.number = Number(g.name);
      continue;
    }
    if (!byName.has(g.name)) {
      while (groups.some((o) => o.number === next && o.name !== g.name)) next++;
      byName.set(g.name, next++);
    }
    g.number = byName.get(g.name)!;
  }
}

export const DEFAULT_OPTIONS: Options = { i: false, m: false, s: false, n: false, x: false };

/** Parses a .NET pattern; throws RegexRefusal. */
export function parseDotnetPattern(pattern: string, options: Partial<Options> = {}): ParsedPattern {
  return new Parser(pattern, { ...DEFAULT_OPTIONS, ...options }).parse();
}
