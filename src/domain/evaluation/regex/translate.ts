/**
 * .NET regular expression -> V8 RegExp with the same answers (docs/evaluation.md, ".NET regular
 * expressions"). The apps run every custom-format pattern with RegexOptions.IgnoreCase, so that is
 * the default here.
 */
import { parseDotnetPattern, RegexRefusal, type ClassItem, type ClassNode, type CondNode, type GroupNode, type Node, type Options, type SetKind } from './dotnet-syntax';

export interface TranslatedRegex {
  /** The .NET pattern. */
  pattern: string;
  /** JavaScript source with subject-dependent parts marked (see instantiate). */
  template: string;
  flags: string;
  /** The pattern uses \w, \W, \d, \D, \b or \B, whose answers depend on the subject's non-ASCII characters. */
  subjectDependent: boolean;
  /**
   * The answer can depend on how a character outside the BMP is read: .NET sees two UTF-16
   * surrogates, the v flag one character (`.`, negated classes, \W \S \D, categories, a quantified one).
   */
  unitSensitive?: boolean;
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

/*
 * IgnoreCase in .NET 7 and later (the apps run .NET 8): two UTF-16 characters are equivalent when one
 * lower-cases to the other or both lower-case to the same character (a casing table applied to the
 * pattern: `k` becomes [Kk\u212A]); with a culture other than the invariant or Turkish ones (the apps
 * run under en-US), `i`, `I` and `İ` (U+0130) are one class. JavaScript's i flag folds with Unicode
 * case folding instead (ſ = s, ς = σ, µ = μ, supplementary letters too), so translations never
 * carry it: each case-insensitive character or range is expanded to its .NET class.
 */
let caseClasses: Map<number, number[]> | null = null;

function dotnetLower(code: number): number {
  if (code === 0x130) return 0x69; // İ: en-US lower-cases it to i (JavaScript's toLowerCase gives i + U+0307)
  const lower = String.fromCharCode(code).toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : code;
}

/** The BMP characters that have case equivalents, each with its class (computed on first use). */
function casingTable(): Map<number, number[]> {
  if (caseClasses) return caseClasses;
  const byLower = new Map<number, number[]>();
  for (let c = 0; c <= 0xffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const l = dotnetLower(c);
    if (l === c) continue;
    let members = byLower.get(l);
    if (!members) byLower.set(l, (members = [l]));
    members.push(c);
  }
  caseClasses = new Map();
  for (const members of byLower.values()) for (const m of members) caseClasses.set(m, members);
  return caseClasses;
}

/** The characters a case-insensitive .NET match treats as `code` (itself first). */
export function caseVariants(code: number): number[] {
  const members = casingTable().get(code);
  return members ? [code, ...members.filter((m) => m !== code)] : [code];
}

interface PathStep {
  node: Node;
  index: number;
}

const NEGATED: Partial<Record<GroupNode['kind'], GroupNode['kind']>> = {
  lookahead: 'negLookahead',
  negLookahead: 'lookahead',
  lookbehind: 'negLookbehind',
  negLookbehind: 'lookbehind',
};

const LOOKAROUNDS = new Set<GroupNode['kind']>(['lookahead', 'negLookahead', 'lookbehind', 'negLookbehind']);

/** Every node's ancestors, root first. */
function ancestorsOf(root: Node): Map<Node, Node[]> {
  const out = new Map<Node, Node[]>();
  const walk = (node: Node, above: Node[]) => {
    out.set(node, above);
    const inner = [...above, node];
    for (const child of childrenOf(node)) walk(child, inner);
  };
  walk(root, []);
  return out;
}

function childrenOf(node: Node): Node[] {
  switch (node.t) {
    case 'alt':
      return node.alts;
    case 'seq':
      return node.items;
    case 'group':
    case 'quant':
      return [node.body];
    case 'cond':
      return node.test.kind === 'assert' ? [node.test.assertion, node.yes, node.no] : [node.yes, node.no];
    default:
      return [];
  }
}

/** The fewest characters a node can match. */
function minLength(node: Node): number {
  switch (node.t) {
    case 'alt':
      return Math.min(...node.alts.map(minLength));
    case 'seq':
      return node.items.reduce((n, i) => n + minLength(i), 0);
    case 'char':
    case 'any':
    case 'class':
    case 'set':
    case 'prop':
      return 1;
    case 'group':
      return LOOKAROUNDS.has(node.kind) ? 0 : minLength(node.body);
    case 'quant':
      return node.min === 0 ? 0 : node.min * minLength(node.body);
    case 'cond':
      return Math.min(minLength(node.yes), minLength(node.no));
    default:
      return 0;
  }
}

/** Whether some character a class holds has case equivalents (so a case-insensitive comparison of it differs). */
function classHasCased(items: ClassItem[], negated: boolean): boolean {
  if (negated) return true;
  return items.some((item) => {
    if (item.kind === 'set') return !['d', 's'].includes(item.set);
    if (item.kind === 'prop') return item.negated || !/^(?:Nd|P[a-z]?|Z[a-z]?|Cc)$/.test(item.name);
    return rangeHasCased(item.lo, item.hi);
  });
}

function rangeHasCased(lo: number, hi: number): boolean {
  if (hi - lo < 64) {
    for (let c = lo; c <= hi; c++) if (caseVariants(c).length > 1) return true;
    return false;
  }
  return true;
}

/** Whether a node can consume a character that has case equivalents. */
function canMatchCased(node: Node): boolean {
  switch (node.t) {
    case 'char':
      return caseVariants(node.cp).length > 1;
    case 'class':
      return classHasCased(node.items, node.negated);
    case 'set':
      return !['d', 's'].includes(node.set);
    case 'prop':
    case 'any':
    case 'backref':
      return true;
    case 'group':
      return !LOOKAROUNDS.has(node.kind) && canMatchCased(node.body);
    default:
      return childrenOf(node).some(canMatchCased);
  }
}

class Emitter {
  subjectDependent = false;
  unitSensitive = false;
  private jsGroups = 0;
  private readonly jsIndex = new Map<GroupNode, number>();
  private readonly paths = new Map<GroupNode, PathStep[]>();
  private readonly path: PathStep[] = [];
  private readonly closed = new Set<GroupNode>();
  /** Groups a conditional tests, with the name of the marker group that records their participation. */
  private readonly markers = new Map<GroupNode, string>();
  /** Why a group test cannot use a marker (it is then translated only where the group has surely matched). */
  private readonly problems = new Map<CondNode, string>();

  constructor(
    private readonly groups: GroupNode[],
    conditionals: CondNode[],
    root: Node,
  ) {
    const ancestors = ancestorsOf(root);
    for (const c of conditionals) {
      if (c.test.kind !== 'group') continue;
      const { target, problem } = this.conditionTarget(c, ancestors);
      if (problem !== null) this.problems.set(c, problem);
      else if (minLength(target.body) > 0 && !this.markers.has(target)) this.markers.set(target, `c${this.markers.size}`);
    }
  }

  /**
   * A group test (?(1)yes|no) asks whether the group has captured so far. JavaScript cannot ask
   * that of a group, so the group gets a marker, (?=(?<m>[\s\S]*)) just before it, holding the
   * rest of the text from where the group starts: at a later position \k<m> can match only when the
   * marker is unset (an unset group matches empty in JavaScript), never when it holds that longer
   * text. This is exact when the group cannot match empty (the condition lies strictly after the
   * marker), keeps its capture as .NET does (not in a repeated quantifier, whose iterations
   * JavaScript resets, nor in a lookaround) and does not contain the conditional. Otherwise (and for
   * a group that can match empty) the test is translated only where the group has surely matched
   * before it: it is then always true.
   */
  private conditionTarget(c: CondNode, ancestors: Map<Node, Node[]>): { target: GroupNode; problem: string | null } {
    const ref = (c.test as { ref: number | string }).ref;
    const label = `conditional (?(${String(ref)})yes|no)`;
    const targets = [...new Set(this.groups.filter((g) => (typeof ref === 'number' ? g.number === ref : g.name === ref)))];
    if (targets.length !== 1) throw new RegexRefusal(`${label} on a group name defined more than once is not translated`, c.offset);
    const target = targets[0];
    const above = ancestors.get(target) ?? [];
    const problem = above.some((n) => n.t === 'quant' && n.max > 1)
      ? `${label} on a group inside a repeated quantifier is not translated (JavaScript forgets the group's capture between repetitions, .NET keeps it)`
      : above.some((n) => n.t === 'group' && LOOKAROUNDS.has(n.kind))
        ? `${label} on a group inside a lookaround is not translated`
        : (ancestors.get(c) ?? []).includes(target)
          ? `${label} inside the group it tests is not translated`
          : (ancestors.get(c) ?? []).some((n) => n.t === 'group' && (n.kind === 'lookbehind' || n.kind === 'negLookbehind'))
            ? `${label} inside a lookbehind is not translated`
            : null;
    return { target, problem };
  }

  emit(node: Node): string {
    switch (node.t) {
      case 'alt':
        return node.alts.map((a, i) => this.child(node, i, a)).join('|');
      case 'seq':
        return node.items.map((a, i) => this.child(node, i, a)).join('');
      case 'char':
        return this.char(node.cp, node.ci);
      case 'any':
        this.unitSensitive = true;
        return node.singleline ? '[\\s\\S]' : '[^\\n]';
      case 'class':
        this.unitSensitive ||= node.negated || node.subtract !== null || node.items.some((i) => i.kind !== 'range' ? i.kind === 'prop' || 'WSD'.includes(i.set) : i.hi >= 0xd800);
        return this.charClass(node);
      case 'set':
        this.subjectDependent ||= node.set !== 's' && node.set !== 'S';
        this.unitSensitive ||= 'WSD'.includes(node.set);
        return SETS[node.set].atom;
      case 'prop':
        this.unitSensitive = true;
        return `\\${node.negated ? 'P' : 'p'}{${node.name}}`;
      case 'quant': {
        // .NET quantifies the second surrogate of a character outside the BMP, the v flag the whole character.
        this.unitSensitive ||= node.body.t === 'char' && node.body.cp > 0xffff;
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
      case 'cond':
        return this.conditional(node);
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
    if (!ci) return literal(code);
    const variants = caseVariants(code);
    return variants.length === 1 ? literal(code) : `[${variants.map(classLiteral).join('')}]`;
  }

  /** A class; IgnoreCase extends its ranges (not its categories) with their case equivalents, as .NET 7+ does. */
  private charClass(node: ClassNode): string {
    const parts: string[] = [];
    const extra = new Set<number>();
    for (const item of node.items) {
      if (item.kind === 'set') {
        this.subjectDependent ||= item.set !== 's' && item.set !== 'S';
        parts.push(SETS[item.set].item);
      } else if (item.kind === 'prop') parts.push(`\\${item.negated ? 'P' : 'p'}{${item.name}}`);
      else {
        parts.push(item.lo === item.hi ? classLiteral(item.lo) : `${classLiteral(item.lo)}-${classLiteral(item.hi)}`);
        if (node.ci) for (const [c] of casingTable()) if (c >= item.lo && c <= item.hi) for (const v of caseVariants(c)) extra.add(v);
      }
    }
    const ranges = node.items.filter((i): i is Extract<ClassItem, { kind: 'range' }> => i.kind === 'range');
    for (const v of extra) if (!ranges.some((r) => v >= r.lo && v <= r.hi)) parts.push(classLiteral(v));
    const base = `[${node.negated ? '^' : ''}${parts.join('')}]`;
    if (!node.subtract) return base;
    return `[${base}--${this.charClass(node.subtract)}]`;
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
      case 'G':
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
        const marker = this.markers.get(node);
        if (marker) this.jsGroups++;
        this.jsIndex.set(node, ++this.jsGroups);
        this.paths.set(node, [...this.path]);
        const out = body((s) => `${marker ? `(?=(?<${marker}>[\\s\\S]*))` : ''}(${s})`);
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
   * (?(expression)yes|no) -> (?:(?=expression)yes|(?!expression)no): the assertion decides the
   * branch and the other branch can never be taken, as in .NET. A group test uses its marker.
   */
  private conditional(node: CondNode): string {
    if (node.test.kind === 'assert') {
      const assertion = node.test.assertion;
      const holds = this.child(node, 0, assertion);
      const yes = this.child(node, 1, node.yes);
      const fails = this.child(node, 0, { ...assertion, kind: NEGATED[assertion.kind]! });
      const no = this.child(node, 2, node.no);
      return `(?:${holds}${yes}|${fails}${no})`;
    }
    const ref = node.test.ref;
    const target = this.groups.find((g) => (typeof ref === 'number' ? g.number === ref : g.name === ref))!;
    const at = this.paths.get(target);
    if (at && this.closed.has(target) && surelyBefore(at, this.path)) return this.child(node, 1, node.yes);
    const problem = this.problems.get(node);
    if (problem) throw new RegexRefusal(problem, node.offset);
    const marker = this.markers.get(target);
    if (!marker) throw new RegexRefusal(`conditional (?(${String(ref)})yes|no) on a group that can match an empty string is not translated (JavaScript cannot tell an empty capture from none)`, node.offset);
    const yes = this.child(node, 1, node.yes);
    const no = this.child(node, 2, node.no);
    return `(?:(?!\\k<${marker}>)${yes}|(?=\\k<${marker}>)${no})`;
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
    if (node.ci && canMatchCased(target.body)) {
      throw new RegexRefusal(`case-insensitive back reference \\${String(node.ref)} to a group that can capture letters is not translated (JavaScript compares it case-sensitively)`, 0);
    }
    const at = this.paths.get(target);
    if (!at || !this.closed.has(target) || !surelyBefore(at, this.path)) {
      throw new RegexRefusal(`back reference \\${String(node.ref)} to a group that may not have matched (JavaScript would match it as empty, .NET fails)`, 0);
    }
    const lookbehinds = new Set(at.map((step) => step.node).filter((n) => n.t === 'group' && (n.kind === 'lookbehind' || n.kind === 'negLookbehind')));
    if (this.path.some((step) => lookbehinds.has(step.node))) {
      // Both engines match a lookbehind right to left: inside one, the reference is reached before its group.
      throw new RegexRefusal(`back reference \\${String(node.ref)} to a group in the same lookbehind is not translated`, 0);
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
    if (n.t === 'alt' || n.t === 'cond') return false;
    if (n.t === 'quant' && n.min === 0) return false;
    if (n.t === 'group' && n.kind !== 'capture' && n.kind !== 'group' && n.kind !== 'atomic' && n.kind !== 'lookahead' && n.kind !== 'lookbehind') return false;
  }
  return true;
}

/**
 * The non-ASCII word and digit characters of a subject, and the joiners U+200C/U+200D that .NET's
 * \b counts as word characters ('' for an ASCII subject): the key of an instance. Characters
 * outside the BMP are not word characters in .NET (it sees two surrogates), so they are left out.
 */
export function subjectKey(subject: string): string {
  let i = 0;
  while (i < subject.length && subject.charCodeAt(i) < 0x80) i++;
  if (i === subject.length) return '';
  const word = new Set<string>();
  const digit = new Set<string>();
  const joiners = new Set<string>();
  for (let k = i; k < subject.length; k++) {
    const ch = subject[k];
    if (ch.charCodeAt(0) < 0x80) continue;
    if (ch === '\u200c' || ch === '\u200d') joiners.add(ch);
    else if (NON_ASCII_WORD.test(ch)) word.add(ch);
    if (NON_ASCII_DIGIT.test(ch)) digit.add(ch);
  }
  if (word.size === 0 && joiners.size === 0) return '';
  return `${[...word].sort().join('')}\u0000${[...digit].sort().join('')}\u0000${[...joiners].sort().join('')}`;
}

const NON_ASCII_WORD = /^[\p{L}\p{Mn}\p{Nd}\p{Pc}]$/u;
const NON_ASCII_DIGIT = /^\p{Nd}$/u;

const chars = (s: string) => [...s].map((c) => classLiteral(c.codePointAt(0)!)).join('');

/** The JavaScript source of a translation for subjects of one key (see subjectKey). */
export function instantiate(regex: TranslatedRegex, key: string): string {
  if (!regex.subjectDependent) return regex.template;
  const [word = '', digit = '', joiners = ''] = key.split('\u0000');
  const w = chars(word);
  const d = chars(digit);
  const W = `[\\w${w}${chars(joiners)}]`;
  const plain = word === '' && joiners === '';
  const boundary = plain ? '\\b' : `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;
  const nonBoundary = plain ? '\\B' : `(?:(?<=${W})(?=${W})|(?<!${W})(?!${W}))`;
  return regex.template.replace(MARKERS, (m) => (m === W_EXTRA ? w : m === D_EXTRA ? d : m === BOUNDARY ? boundary : nonBoundary));
}

const MARKERS = /\u0001[WDbB]/g;

function compileCheck(regex: TranslatedRegex): void {
  try {
    new RegExp(instantiate(regex, ''), regex.flags);
    new RegExp(instantiate(regex, 'é\u0000١\u0000\u200d'), regex.flags);
  } catch {
    throw new RegexRefusal('the translated pattern does not compile in JavaScript', 0);
  }
}

/** Translations by pattern: database cache states, the evaluation model and the editor share them. */
const translations = new Map<string, Translation>();
const MAX_REMEMBERED = 20_000;

/**
 * Translates a .NET pattern. `ignoreCase` is RegexOptions.IgnoreCase (the apps always set it);
 * inline options may turn it off in part of the pattern. A refusal's reason names the construct.
 */
export function translateDotnetRegex(pattern: string, ignoreCase = true): Translation {
  const key = `${ignoreCase ? 'i' : '-'}${pattern}`;
  let t = translations.get(key);
  if (!t) {
    t = translateUncached(pattern, ignoreCase);
    if (translations.size >= MAX_REMEMBERED) translations.delete(translations.keys().next().value as string);
    translations.set(key, t);
  }
  return t;
}

/**
 * What an import or edit of a regular expression answers when custom-format evaluation refuses its
 * pattern (the construct named), or null when it translates.
 */
export function unevaluablePatternWarning(name: string, pattern: string): string | null {
  const t = translateDotnetRegex(pattern);
  return t.ok ? null : `regular expression "${name}": custom-format evaluation refuses this pattern (${t.reason}); conditions that use it are not evaluable`;
}

/** The regular expressions (name -> pattern) arrgo cannot evaluate as .NET would, each with the reason, by name. */
export function unevaluablePatterns(patterns: Readonly<Record<string, string>>): { name: string; reason: string }[] {
  const out: { name: string; reason: string }[] = [];
  for (const [name, pattern] of Object.entries(patterns)) {
    if (pattern.trim() === '') continue;
    const t = translateDotnetRegex(pattern);
    if (!t.ok) out.push({ name, reason: t.reason });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function translateUncached(pattern: string, ignoreCase: boolean): Translation {
  try {
    const parsed = parseDotnetPattern(pattern, { i: ignoreCase } satisfies Partial<Options>);
    const emitter = new Emitter(parsed.groups, parsed.conditionals, parsed.root);
    const template = emitter.emit(parsed.root);
    const regex: TranslatedRegex = { pattern, template, flags: 'v', subjectDependent: emitter.subjectDependent, unitSensitive: emitter.unitSensitive };
    compileCheck(regex);
    return { ok: true, regex };
  } catch (error) {
    if (error instanceof RegexRefusal) return { ok: false, pattern, reason: error.reason };
    throw error;
  }
}

/**
 * Whether the translation answers for this subject as .NET does: not when the subject holds a
 * character outside the BMP and the pattern's answer depends on how it is read (docs/evaluation.md,
 * ".NET regular expressions"); such a match is reported not evaluable, never answered.
 */
export function decidesFor(regex: TranslatedRegex, subject: string): boolean {
  return !regex.unitSensitive || !OUTSIDE_BMP_TEXT.test(subject);
}

/** A text holding a character outside the BMP (a surrogate). */
export const OUTSIDE_BMP_TEXT = /[\ud800-\udfff]/;

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
