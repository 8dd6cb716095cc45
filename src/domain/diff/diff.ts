/**
 * Generic, pure field diff between two JSON-like values (current -> desired).
 *
 * Used for user-layer overrides, sync previews, drift and cross-instance compares, so it knows
 * nothing about any entity type: callers describe arrays with rules.
 *
 * Semantics:
 * - Objects are compared property by property; a property present on one side only is `added`
 *   or `removed` (an `undefined` property counts as absent, `null` is a value).
 * - Arrays of named items are keyed: each item is addressed by its key (`conditions.HDR10+`),
 *   missing/new items are `removed`/`added` as a whole, common items are compared field by field
 *   (the key property itself is not reported). Without a rule, an array whose items are all
 *   objects carrying a unique string/number `defaultKey` property (default `name`) is keyed by it.
 * - Any other array (primitives, mixed, duplicate keys) is compared as one value: `changed`.
 * - A rule with `ordered: true` additionally reports a change in the relative order of the items
 *   both sides share as a `changed` entry on the array path itself, with the key lists as values.
 * - Values of different kinds (object vs array vs primitive) are `changed`.
 *
 * Paths use the notation of ./path.ts. Output order is deterministic (traversal order).
 */
import { joinPath } from './path';

export type FieldChangeType = 'added' | 'changed' | 'removed';

export interface FieldChange {
  /** Dot-notated path (see path.ts). */
  field: string;
  type: FieldChangeType;
  /** Value on the current side; null when added. */
  current: unknown;
  /** Value on the desired side; null when removed. */
  desired: unknown;
}

export interface ArrayRule {
  /** Property naming each item, a function computing the key, or null to compare the array as one value. */
  key: string | ((item: unknown) => string) | null;
  /** Report changes of relative order on the array path itself. */
  ordered?: boolean;
}

export interface DiffOptions {
  /**
   * Rules by array shape path: the array's path where keyed-item segments are written `*`.
   * In a pattern `*` matches any one segment, e.g. `customFormats.*` or `qualities.*.members`.
   */
  arrays?: Record<string, ArrayRule>;
  /** Property keying arrays of objects that have no rule; null disables automatic keying. Default 'name'. */
  defaultKey?: string | null;
  /** Shape paths (same pattern syntax) that are skipped entirely. */
  ignore?: string[];
}

interface CompiledOptions {
  rules: { pattern: string[]; rule: ArrayRule }[];
  ignore: string[][];
  defaultKey: string | null;
}

const compiledCache = new WeakMap<DiffOptions, CompiledOptions>();

function compile(options: DiffOptions = {}): CompiledOptions {
  const cached = compiledCache.get(options);
  if (cached) return cached;
  const compiled: CompiledOptions = {
    rules: Object.entries(options.arrays ?? {}).map(([pattern, rule]) => ({ pattern: pattern.split('.'), rule })),
    ignore: (options.ignore ?? []).map((p) => p.split('.')),
    defaultKey: options.defaultKey === undefined ? 'name' : options.defaultKey,
  };
  compiledCache.set(options, compiled);
  return compiled;
}

function matches(pattern: string[], shape: string[]): boolean {
  if (pattern.length !== shape.length) return false;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '*' && pattern[i] !== shape[i]) return false;
  }
  return true;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON-like values (object key order is irrelevant, array order matters). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    for (const k of ka) if (!deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

type KeyedItems = { keys: string[]; byKey: Map<string, unknown>; keyProp: string | null };

function keyItems(items: unknown[], rule: ArrayRule): KeyedItems | null {
  const keyProp = typeof rule.key === 'string' ? rule.key : null;
  const byKey = new Map<string, unknown>();
  const keys: string[] = [];
  for (const item of items) {
    let key: unknown;
    if (typeof rule.key === 'function') key = rule.key(item);
    else if (keyProp !== null && isPlainObject(item)) key = item[keyProp];
    if (typeof key !== 'string' && typeof key !== 'number') return null;
    const k = String(key);
    if (byKey.has(k)) return null;
    byKey.set(k, item);
    keys.push(k);
  }
  return { keys, byKey, keyProp };
}

function ruleFor(shape: string[], values: unknown[][], opts: CompiledOptions): ArrayRule {
  for (const { pattern, rule } of opts.rules) if (matches(pattern, shape)) return rule;
  const key = opts.defaultKey;
  if (key !== null) {
    const all = values.flat();
    if (all.length > 0 && all.every((v) => isPlainObject(v) && (typeof v[key] === 'string' || typeof v[key] === 'number'))) {
      return { key };
    }
  }
  return { key: null };
}

/**
 * How items of the array at `shape` (keyed-item segments written `*`) are keyed under `options`:
 * a function giving each item's key, or null when the array is compared as one value.
 */
export function arrayKeyOf(options: DiffOptions | undefined, shape: string[], items: unknown[]): ((item: unknown) => string) | null {
  const rule = ruleFor(shape, [items], compile(options));
  if (rule.key === null) return null;
  const key = rule.key;
  return typeof key === 'function' ? key : (item) => String(isPlainObject(item) ? item[key] : undefined);
}

function withoutKey(item: unknown, keyProp: string | null): unknown {
  if (keyProp === null || !isPlainObject(item)) return item;
  const { [keyProp]: _omitted, ...rest } = item;
  return rest;
}

function sameOrder(current: string[], desired: string[]): boolean {
  const inDesired = new Set(desired);
  const inCurrent = new Set(current);
  const a = current.filter((k) => inDesired.has(k));
  const b = desired.filter((k) => inCurrent.has(k));
  return a.every((k, i) => k === b[i]);
}

function walk(
  current: unknown,
  desired: unknown,
  path: string,
  shape: string[],
  opts: CompiledOptions,
  out: FieldChange[],
): void {
  if (opts.ignore.some((p) => matches(p, shape))) return;
  if (current === undefined && desired === undefined) return;
  if (current === undefined) {
    out.push({ field: path, type: 'added', current: null, desired });
    return;
  }
  if (desired === undefined) {
    out.push({ field: path, type: 'removed', current, desired: null });
    return;
  }
  if (isPlainObject(current) && isPlainObject(desired)) {
    const keys = [...Object.keys(current), ...Object.keys(desired).filter((k) => !(k in current))];
    for (const key of keys) walk(current[key], desired[key], joinPath(path, key), [...shape, key], opts, out);
    return;
  }
  if (Array.isArray(current) && Array.isArray(desired)) {
    const rule = ruleFor(shape, [current, desired], opts);
    const cur = rule.key === null ? null : keyItems(current, rule);
    const des = rule.key === null ? null : keyItems(desired, rule);
    if (!cur || !des) {
      if (!deepEqual(current, desired)) out.push({ field: path, type: 'changed', current, desired });
      return;
    }
    if (rule.ordered && !sameOrder(cur.keys, des.keys)) {
      out.push({ field: path, type: 'changed', current: cur.keys, desired: des.keys });
    }
    const itemShape = [...shape, '*'];
    for (const key of cur.keys) {
      if (!des.byKey.has(key)) out.push({ field: joinPath(path, key), type: 'removed', current: cur.byKey.get(key), desired: null });
    }
    for (const key of des.keys) {
      const itemPath = joinPath(path, key);
      if (!cur.byKey.has(key)) {
        out.push({ field: itemPath, type: 'added', current: null, desired: des.byKey.get(key) });
      } else {
        walk(withoutKey(cur.byKey.get(key), cur.keyProp), withoutKey(des.byKey.get(key), des.keyProp), itemPath, itemShape, opts, out);
      }
    }
    return;
  }
  if (!deepEqual(current, desired)) out.push({ field: path, type: 'changed', current, desired });
}

/**
 * Field-level changes turning `current` into `desired`. A null/undefined side is treated as an
 * empty object when the other side is an object, so creating an entity lists every field as added.
 */
export function diff(current: unknown, desired: unknown, options?: DiffOptions): FieldChange[] {
  const opts = compile(options);
  const out: FieldChange[] = [];
  const cur = current ?? (isPlainObject(desired) ? {} : current);
  const des = desired ?? (isPlainObject(current) ? {} : desired);
  walk(cur === null ? undefined : cur, des === null ? undefined : des, '', [], opts, out);
  return out;
}

export interface Leaf {
  path: string;
  value: unknown;
}

/**
 * The leaf paths of a value, in the notation `diff` uses: scalars, whole-value arrays, and (for
 * ordered keyed arrays) the array path itself standing for the order, with the key list as value.
 * Keys of keyed items are not leaves. Lineage is reported per leaf.
 */
export function leaves(value: unknown, options?: DiffOptions): Leaf[] {
  const opts = compile(options);
  const out: Leaf[] = [];
  const visit = (v: unknown, path: string, shape: string[]): void => {
    if (opts.ignore.some((p) => matches(p, shape))) return;
    if (v === undefined) return;
    if (isPlainObject(v)) {
      for (const [k, child] of Object.entries(v)) visit(child, joinPath(path, k), [...shape, k]);
      return;
    }
    if (Array.isArray(v)) {
      const rule = ruleFor(shape, [v], opts);
      const keyed = rule.key === null ? null : keyItems(v, rule);
      if (!keyed) {
        out.push({ path, value: v });
        return;
      }
      if (rule.ordered) out.push({ path, value: keyed.keys });
      for (const key of keyed.keys) visit(withoutKey(keyed.byKey.get(key), keyed.keyProp), joinPath(path, key), [...shape, '*']);
      return;
    }
    out.push({ path, value: v });
  };
  visit(value, '', []);
  return out;
}
