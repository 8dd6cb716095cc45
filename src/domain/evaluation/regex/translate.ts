/**
 * .NET regular expression -> V8 RegExp with the same answers (docs/evaluation.md, "Regex
 * translation"). The apps run every custom-format pattern with RegexOptions.IgnoreCase, so that is
 * the default here.
 */
import { parseDotnetPattern, RegexRefusal, type ClassItem, type GroupNode, type Node, type Options, type SetKind } from './dotnet-syntax';

export interface TranslatedRegex {
  /** The .NET pattern. */
  pattern: string;
  /** JavaScript source with subject-dependent parts marked (see instantiate). */
  template: string;
  flags: string;
  /** The pattern uses \w, \W, \d, \D, \b or \B, whose answers depend on the subject's non-ASCII characters. */
  subjectDependent: boolean;
}

export type Translation = { ok: true; regex: TranslatedRegex } | { ok: false; pattern: string; reason: string };

/*
 * .NET: \w = [\p{L}\p{Mn}\p{Nd}\p{Pc}], \d = \p{Nd}, \s = [\f\n\r\t\v\x85\p{Z}], \b between \w and \W.
 * V8's \w, \d and \b are ASCII-only. Unicode property classes would make them faithful, but each
 * costs about a millisecond to compile (a pattern has several), so the word and digit sets are
 * instead V8's ASCII ones plus the non-ASCII word/digit characters of the subject being matched:
 * only characters of the subject can decide a match. Markers in the template stand for those.
 */
const W_EXTRA = '\u0001W';
const D_EXTRA = '\u0001D';
const BOUNDARY = '\u0001b';
const NON_BOUNDARY = '\u0001B';
const SPACE_ITEMS = '\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SETS: Record<SetKind, { item: string; atom: string }> = {
  w: { item: `\\w${W_EXTRA}`, atom: `[\\w${W_EXTRA}]` },
  W: { item: `[^\\w${W_EXTRA}]`, atom: `[^\\w${W_EXTRA}]` },
  d: { item: `\\d${D_EXTRA}`, atom: `[\\d${D_EXTRA}]` },
  D: { item: `[^\\d${D_EXTRA}]`, atom: `[^\\d${D_EXTRA}]` },
  s: { item: SPACE_ITEMS, atom: `[${SPACE_ITEMS}]` },
  S: { item: `[^${SPACE_ITEMS}]`, atom: `[^${SPACE_ITEMS}]` },
};

const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const CLASS_ESCAPED = new Set('()[]{}/-\\|&!#%,:;<=>@`~^$.*+?');
/** Case-insensitive expansion enumerates ranges up to this size (larger ones hold both cases already). */
const MAX_EXPANDED_RANGE = 5000;

function hex(code: number): string {
  return `\\u{${code.toString(16)}}`;
}

function literal(code: number): string {
  const ch = String.fromCodePoint(code);
  if (SYNTAX.has(ch)) return `\\${ch}`;
  if (code < 0x20 || code > 0x7e) return hex(code);
  return ch;
}

function classLiteral(code: number): string {
  const ch = String.fromCodePoint(code);
  if (CLASS_ESCAPED.has(ch)) return `\\${ch}`;
  if (code < 0x20 || code > 0x7e) return hex(code);
  return ch;
}

/** The characters a case-insensitive match treats as `code` (simple case mappings). */
function caseVariants(code: number): number[] {
  const ch = String.fromCodePoint(code);
  const out = new Set<number>([code]);
  for (const v of [ch.toLowerCase(), ch.toUpperCase()]) if ([...v].length === 1) out.add(v.codePointAt(0)!);
  for (const v of [...out]) {
    const c = String.fromCodePoint(v);
    for (const w of [c.toLowerCase(), c.toUpperCase()]) if ([...w].length === 1) out.add(w.codePointAt(0)!);
  }
  return [...out];
}

interface EmitOptions {
  /** Case-insensitivity is a flag (uniform) or expanded per literal (mixed). */
  ciFlag: boolean;
}

interface PathStep {
  node: Node;
  index: number;
}

class Emitter {
  subjectDependent = false;
  private jsGroups = 0;
  private readonly jsIndex = new Map<GroupNode, number>();
  private readonly paths = new Map<GroupNode, PathStep[]>();
  private readonly path: PathStep[] = [];
  private readonly closed = new Set<GroupNode>();

  constructor(
    private readonly opts: EmitOptions,
    private readonly groups: GroupNode[],
  ) {}

  emit(node: Node): string {
    switch (node.t) {
      case 'alt':
        return node.alts.map((a, i) => this.child(node, i, a)).join('|');
      case 'seq':
        return node.items.map((a, i) => this.child(node, i, a)).join('');
      case 'char':
        return this.char(node.cp, node.ci);
      case 'any':
        return node.singleline ? '[\\s\\S]' : '[^\\n]';
      case 'class':
        return this.charClass(node.negated, node.items, node.ci);
      case 'set':
        this.subjectDependent ||= node.set !== 's' && node.set !== 'S';
        return SETS[node.set].atom;
      case 'prop':
        return `\\${node.negated ? 'P' : 'p'}{${node.name}}`;
      case 'quant': {
        const body = this.child(node, 0, node.body);
        const q = node.min === 0 && node.max === Infinity ? '*' : node.min === 1 && node.max === Infinity ? '+' : node.min === 0 && node.max === 1 ? '?' : node.max === Infinity ? `{${node.min},}` : node.min === node.max ? `{${node.min}}` : `{${node.min},${node.max}}`;
        return `(?:${body})${q}${node.lazy ? '?' : ''}`;
      }
      case 'anchor':
        return this.anchor(node.kind, node.multiline);
      case 'group':
        return this.group(node);
      case 'backref':
        return this.backref(node);
    }
  }

  private child(parent: Node, index: number, node: Node): string {
    this.path.push({ node: parent, index });
    try {
      return this.emit(node);
    } finally {
      this.path.pop();
    }
  }

  private char(code: number, ci: boolean): string {
    if (!ci || this.opts.ciFlag) return literal(code);
    const variants = caseVariants(code);
    return variants.length === 1 ? literal(code) : `[${variants.map(classLiteral).join('')}]`;
  }

  private charClass(negated: boolean, items: ClassItem[], ci: boolean): string {
    const parts: string[] = [];
    for (const item of items) {
      if (item.kind === 'set') {
        this.subjectDependent ||= item.set !== 's' && item.set !== 'S';
        parts.push(SETS[item.set].item);
      }
      else if (item.kind === 'prop') parts.push(`\\${item.negated ? 'P' : 'p'}{${item.name}}`);
      else {
        parts.push(item.lo === item.hi ? classLiteral(item.lo) : `${classLiteral(item.lo)}-${classLiteral(item.hi)}`);
        if (ci && !this.opts.ciFlag && item.hi - item.lo <= MAX_EXPANDED_RANGE) {
          const extra = new Set<number>();
          for (let c = item.lo; c <= item.hi; c++) for (const v of caseVariants(c)) if (v < item.lo || v > item.hi) extra.add(v);
          for (const v of extra) parts.push(classLiteral(v));
        }
      }
    }
    return `[${negated ? '^' : ''}${parts.join('')}]`;
  }

  private anchor(kind: string, multiline: boolean): string {
    // Translations never carry the m flag, so JS ^ and $ are the start and the very end of the subject
    // (anchored patterns stay anchored, which V8 runs much faster than a lookbehind).
    switch (kind) {
      case 'start':
        return multiline ? '(?<![^\\n])' : '^';
      case 'end':
        return multiline ? '(?![^\\n])' : '(?=\\n?$)';
      case 'A':
        return '^';
      case 'Z':
        return '(?=\\n?$)';
      case 'z':
        return '$';
      case 'b':
        this.subjectDependent = true;
        return BOUNDARY;
      case 'B':
        this.subjectDependent = true;
        return NON_BOUNDARY;
      default:
        throw new Error(`unknown anchor ${kind}`);
    }
  }

  private group(node: GroupNode): string {
    const body = (wrap: (s: string) => string) => wrap(this.child(node, 0, node.body));
    switch (node.kind) {
      case 'capture': {
        this.jsIndex.set(node, ++this.jsGroups);
        this.paths.set(node, [...this.path]);
        const out = body((s) => `(${s})`);
        this.closed.add(node);
        return out;
      }
      case 'group':
        return body((s) => `(?:${s})`);
      case 'atomic': {
        // Lookarounds are atomic in JavaScript: (?=(X))\N matches what X matched first, without backtracking into it.
        const n = ++this.jsGroups;
        return body((s) => `(?:(?=(${s}))\\${n})`);
      }
      case 'lookahead':
        return body((s) => `(?=${s})`);
      case 'negLookahead':
        return body((s) => `(?!${s})`);
      case 'lookbehind':
        return body((s) => `(?<=${s})`);
      case 'negLookbehind':
        return body((s) => `(?<!${s})`);
    }
  }

  /**
   * JavaScript lets a reference to a group that did not participate match the empty string; .NET
   * fails it. A reference is translated only when its group has surely matched before it.
   */
  private backref(node: Extract<Node, { t: 'backref' }>): string {
    const targets = this.groups.filter((g) => (typeof node.ref === 'number' ? g.number === node.ref : g.name === node.ref));
    if (targets.length === 0) throw new RegexRefusal(`reference to undefined group ${String(node.ref)}`, 0);
    const distinct = new Set(targets);
    if (distinct.size > 1) throw new RegexRefusal(`back reference to group "${String(node.ref)}" defined more than once is not translated`, 0);
    const target = targets[0];
    if (node.ci && !this.opts.ciFlag) throw new RegexRefusal('a case-insensitive back reference inside a case-sensitive pattern is not translated', 0);
    const at = this.paths.get(target);
    if (!at || !this.closed.has(target) || !surelyBefore(at, this.path)) {
      throw new RegexRefusal(`back reference \\${String(node.ref)} to a group that may not have matched (JavaScript would match it as empty, .NET fails)`, 0);
    }
    return `(?:\\${this.jsIndex.get(target)!})`;
  }
}

/** The group at path `group` has matched whenever the reference at path `ref` is reached. */
function surelyBefore(group: PathStep[], ref: PathStep[]): boolean {
  let i = 0;
  while (i < group.length && i < ref.length && group[i].node === ref[i].node && group[i].index === ref[i].index) i++;
  if (i >= group.length || i >= ref.length || group[i].node !== ref[i].node) return false;
  const lca = group[i];
  if (lca.node.t !== 'seq' || group[i].index >= ref[i].index) return false;
  for (const step of group.slice(i + 1)) {
    const n = step.node;
    if (n.t === 'alt') return false;
    if (n.t === 'quant' && n.min === 0) return false;
    if (n.t === 'group' && n.kind !== 'capture' && n.kind !== 'group' && n.kind !== 'atomic' && n.kind !== 'lookahead' && n.kind !== 'lookbehind') return false;
  }
  return true;
}

/** Whether case-insensitivity is the same for every literal (so a flag can carry it). */
function ciModes(node: Node, out: Set<boolean>): void {
  switch (node.t) {
    case 'alt':
      node.alts.forEach((a) => ciModes(a, out));
      return;
    case 'seq':
      node.items.forEach((a) => ciModes(a, out));
      return;
    case 'char':
      if (caseVariants(node.cp).length > 1) out.add(node.ci);
      return;
    case 'class':
      if (node.items.some((i) => i.kind === 'range')) out.add(node.ci);
      return;
    case 'backref':
      out.add(node.ci);
      return;
    case 'group':
    case 'quant':
      ciModes(node.body, out);
      return;
    default:
      return;
  }
}

/** The non-ASCII word and digit characters of a subject ('' for an ASCII subject): the key of an instance. */
export function subjectKey(subject: string): string {
  let i = 0;
  while (i < subject.length && subject.charCodeAt(i) < 0x80) i++;
  if (i === subject.length) return '';
  const word = new Set<string>();
  const digit = new Set<string>();
  for (const ch of subject.slice(i)) {
    if (ch.charCodeAt(0) < 0x80) continue;
    if (NON_ASCII_WORD.test(ch)) word.add(ch);
    if (NON_ASCII_DIGIT.test(ch)) digit.add(ch);
  }
  if (word.size === 0) return '';
  return `${[...word].sort().join('')}\u0000${[...digit].sort().join('')}`;
}

const NON_ASCII_WORD = /^[\p{L}\p{Mn}\p{Nd}\p{Pc}]$/u;
const NON_ASCII_DIGIT = /^\p{Nd}$/u;

const chars = (s: string) => [...s].map((c) => classLiteral(c.codePointAt(0)!)).join('');

/** The JavaScript source of a translation for subjects of one key (see subjectKey). */
export function instantiate(regex: TranslatedRegex, key: string): string {
  if (!regex.subjectDependent) return regex.template;
  const [word = '', digit = ''] = key.split('\u0000');
  const w = chars(word);
  const d = chars(digit);
  const W = `[\\w${w}]`;
  const boundary = w === '' ? '\\b' : `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;
  const nonBoundary = w === '' ? '\\B' : `(?:(?<=${W})(?=${W})|(?<!${W})(?!${W}))`;
  return regex.template.replace(MARKERS, (m) => (m === W_EXTRA ? w : m === D_EXTRA ? d : m === BOUNDARY ? boundary : nonBoundary));
}

const MARKERS = /\u0001[WDbB]/g;

function compileCheck(regex: TranslatedRegex): void {
  try {
    new RegExp(instantiate(regex, ''), regex.flags);
    new RegExp(instantiate(regex, 'é\u0000١'), regex.flags);
  } catch {
    throw new RegexRefusal('the translated pattern does not compile in JavaScript', 0);
  }
}

/**
 * Translates a .NET pattern. `ignoreCase` is RegexOptions.IgnoreCase (the apps always set it);
 * inline options may turn it off in part of the pattern.
 */
export function translateDotnetRegex(pattern: string, ignoreCase = true): Translation {
  try {
    const parsed = parseDotnetPattern(pattern, { i: ignoreCase } satisfies Partial<Options>);
    const modes = new Set<boolean>();
    ciModes(parsed.root, modes);
    const ciFlag = !(modes.has(true) && modes.has(false));
    const flags = ciFlag && (modes.has(true) || (modes.size === 0 && ignoreCase)) ? 'iv' : 'v';
    const emitter = new Emitter({ ciFlag }, parsed.groups);
    const template = emitter.emit(parsed.root);
    const regex: TranslatedRegex = { pattern, template, flags, subjectDependent: emitter.subjectDependent };
    compileCheck(regex);
    return { ok: true, regex };
  } catch (error) {
    if (error instanceof RegexRefusal) return { ok: false, pattern, reason: error.reason };
    throw error;
  }
}

/** A compiled translation: one RegExp per subject key, made on first use. */
export class CompiledRegex {
  private readonly byKey = new Map<string, RegExp>();
  constructor(readonly regex: TranslatedRegex) {}

  forKey(key: string): RegExp {
    const k = this.regex.subjectDependent ? key : '';
    let re = this.byKey.get(k);
    if (!re) {
      if (this.byKey.size >= 64) this.byKey.delete(this.byKey.keys().next().value as string);
      re = new RegExp(instantiate(this.regex, k), this.regex.flags);
      this.byKey.set(k, re);
    }
    return re;
  }

  /** .NET Regex.IsMatch for one subject (no deadline: the regex runner adds one). */
  test(subject: string, key = subjectKey(subject)): boolean {
    return this.forKey(key).test(subject);
  }
}
