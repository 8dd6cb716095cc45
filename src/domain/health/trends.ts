/**
 * Health trends (pure): the canonical selection of stored health snapshots that both the trend
 * endpoint and the export serve. Query validation (from/to or days, exact profile), the window,
 * the canonical order (generatedAt ascending, then snapshotId ascending), one point per snapshot
 * with its state, the envelope (filter echo, retention and availability, profile names, counts,
 * engine-version runs) and the limits: at most TREND_POINT_CAP points and EVIDENCE_BUDGET per
 * stored row, both refused whole (TrendLimitError), never truncated.
 */
import { AppError, validationError } from '../../errors';
import type { ArrType } from '../arr-types';
import { compareText } from './text';
import { CRITERION_IDS, HEALTH_BANDS, type HealthBand, type HealthResult } from './types';

// ---------------------------------------------------------------- limits

/** The most points one trend selection (JSON or CSV) may hold. */
export const TREND_POINT_CAP = 10_000;

/**
 * Budget of one stored snapshot's evidence (its HealthResult): `maxBytes` = UTF-8 bytes of its
 * JSON text (the aggregate size of everything in it), `maxItems` = nested items (every array
 * element and object property value, at any depth). A result over budget is stored as not
 * recorded (recordEvidence); a stored row over budget makes an export refuse the whole selection.
 * A result for 100 profiles with long issue lists stays well below both.
 */
export const EVIDENCE_BUDGET = Object.freeze({ maxBytes: 262_144, maxItems: 20_000 });

/** Largest `days` window. */
export const MAX_TREND_DAYS = 3650;
/** Longest profile filter (the PCD name limit). */
export const MAX_PROFILE_FILTER_LENGTH = 100;

const DAY_MS = 86_400_000;

/** Query parameter names of the trend and export endpoints. */
export const TREND_QUERY_PARAMS = Object.freeze({ from: 'from', to: 'to', days: 'days', profile: 'profile', format: 'format' });

export type TrendLimitCode = 'too_many_points' | 'evidence_over_budget';

/**
 * The selection cannot be served whole (too many points, or a stored row over its evidence
 * budget). Nothing is produced; the caller maps it to a status (kind payload_too_large = 413 by
 * default).
 */
export class TrendLimitError extends AppError {
  constructor(
    readonly code: TrendLimitCode,
    message: string,
    readonly limit: number,
    readonly actual: number,
  ) {
    super('payload_too_large', message, { code });
    this.name = 'TrendLimitError';
  }
}

/** Refuses a selection of `count` points over TREND_POINT_CAP (callers may check a COUNT first). */
export function assertPointCap(count: number): void {
  if (count > TREND_POINT_CAP) {
    throw new TrendLimitError(
      'too_many_points',
      `The selection has ${count} points, more than the limit of ${TREND_POINT_CAP}; narrow the window (from/to or days).`,
      TREND_POINT_CAP,
      count,
    );
  }
}

/** Size of a JSON value: UTF-8 bytes of JSON.stringify(value) and nested items (array elements and property values, any depth). */
export function measureEvidence(value: unknown): { bytes: number; items: number } {
  const text = JSON.stringify(value);
  const bytes = text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  let items = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>).filter((c) => c !== undefined);
    items += children.length;
    for (const c of children) stack.push(c);
  }
  return { bytes, items };
}

export function withinEvidenceBudget(size: { bytes: number; items: number }): boolean {
  return size.bytes <= EVIDENCE_BUDGET.maxBytes && size.items <= EVIDENCE_BUDGET.maxItems;
}

/** What to store for a computed result: the result itself, or null and evidenceRecorded false when over budget. */
export function recordEvidence(result: HealthResult): { result: HealthResult | null; evidenceRecorded: boolean; bytes: number; items: number } {
  const size = measureEvidence(result);
  return withinEvidenceBudget(size) ? { result, evidenceRecorded: true, ...size } : { result: null, evidenceRecorded: false, ...size };
}

// ---------------------------------------------------------------- filter

export interface TrendFilter {
  /** Inclusive lower bound on generatedAt; null = unbounded. */
  from: string | null;
  /** Inclusive upper bound: the given `to`, or the request time captured once. */
  to: string;
  days: number | null;
  /** Exact profile name (no trimming or case folding); null = overall scope. */
  profile: string | null;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

function single(query: Record<string, unknown>, name: string): unknown {
  const value = query[name];
  if (Array.isArray(value)) throw validationError(`${name} must be given once`);
  return value;
}

/** Parses an ISO 8601 date-time with a time zone ("2026-11-21T10:15:00Z", "...+01:00") to its UTC ISO form. */
export function parseDateTime(value: unknown, name: string): string {
  const message = `${name} must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:15:00Z`;
  if (typeof value !== 'string') throw validationError(message);
  const m = DATE_TIME.exec(value);
  if (!m) throw validationError(message);
  const [year, month, day, hour, minute, second, offH, offM] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0', m[7] ?? '0', m[8] ?? '0'].map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59 || offH > 23 || offM > 59) throw validationError(message);
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw validationError(message);
  return new Date(ms).toISOString();
}

function parseDays(value: unknown): number {
  const message = `days must be an integer from 1 to ${MAX_TREND_DAYS}`;
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^[1-9]\d{0,3}$/.test(text)) throw validationError(message);
  const days = Number(text);
  if (days > MAX_TREND_DAYS) throw validationError(message);
  return days;
}

function parseProfile(value: unknown): string {
  if (typeof value !== 'string') throw validationError('profile must be a profile name');
  if (value.length === 0) throw validationError('profile must not be empty');
  if (value.length > MAX_PROFILE_FILTER_LENGTH) throw validationError(`profile must be at most ${MAX_PROFILE_FILTER_LENGTH} characters`);
  return value;
}

/**
 * Validates the trend query (`from`, `to`, `days`, `profile`; other keys are ignored) against the
 * request time `now`, captured once by the caller. `days` = N selects [now - N days, now] and cannot
 * be combined with from or to; `to` defaults to now; from must not be after to. Throws
 * AppError('validation') naming the parameter.
 */
export function parseTrendFilter(query: Record<string, unknown>, now: Date | string): TrendFilter {
  const nowMs = now instanceof Date ? now.getTime() : Date.parse(now);
  if (!Number.isFinite(nowMs)) throw new AppError('internal', 'invalid request time for the trend selection');
  const present = (name: string) => {
    const v = single(query, name);
    return v !== undefined && v !== null;
  };
  const rawFrom = single(query, 'from');
  const rawTo = single(query, 'to');
  const rawDays = single(query, 'days');
  const rawProfile = single(query, 'profile');
  const profile = present('profile') ? parseProfile(rawProfile) : null;
  if (present('days')) {
    if (present('from') || present('to')) throw validationError('days cannot be combined with from or to');
    const days = parseDays(rawDays);
    return { from: new Date(nowMs - days * DAY_MS).toISOString(), to: new Date(nowMs).toISOString(), days, profile };
  }
  const from = present('from') ? parseDateTime(rawFrom, 'from') : null;
  const to = present('to') ? parseDateTime(rawTo, 'to') : new Date(nowMs).toISOString();
  if (from !== null && Date.parse(from) > Date.parse(to)) throw validationError('from must not be after to');
  return { from, to, days: null, profile };
}

export type TrendFormat = 'json' | 'csv';

/** The export's `format` parameter: json (default) or csv. */
export function parseExportFormat(value: unknown): TrendFormat {
  if (Array.isArray(value)) throw validationError('format must be given once');
  if (value === undefined || value === null) return 'json';
  if (value === 'json' || value === 'csv') return value;
  throw validationError('format must be json or csv');
}

// ---------------------------------------------------------------- points and envelope

/** A persisted health snapshot, as the application stores it. */
export interface HealthSnapshotRow {
  snapshotId: number;
  instanceId: number;
  generatedAt: string;
  engineVersion: string;
  /** Null when the evidence was over budget or not recorded. */
  result: HealthResult | null;
  evidenceRecorded: boolean;
}

export const POINT_STATES = ['measured', 'unknown', 'profile-missing', 'not-recorded'] as const;
export type PointState = (typeof POINT_STATES)[number];
/** A criterion observation: measured (scored), skipped (no evidence) or disabled (weight 0). */
export type CriterionObservationState = 'measured' | 'skipped' | 'disabled';

export interface TrendCriterion {
  id: string;
  state: CriterionObservationState;
  score: number | null;
  weight: number | null;
  contribution: number | null;
}

export interface TrendPoint {
  snapshotId: number;
  generatedAt: string;
  engineVersion: string;
  state: PointState;
  /** The unit's band; unknown for unknown, profile-missing and not-recorded points. */
  band: HealthBand;
  /** Null unless measured (a measured 0 stays 0). */
  score: number | null;
  /** Overall criterion observations; empty for an exact-profile scope, profile-missing and not-recorded. */
  criteria: TrendCriterion[];
}

export interface TrendRetention {
  policy: { retentionDays: number; [key: string]: unknown };
  availability: { oldestSnapshotAt: string | null; newestSnapshotAt: string | null; totalSnapshots: number };
}

export interface TrendCounts {
  points: number;
  measured: number;
  unknown: number;
  profileMissing: number;
  notRecorded: number;
}

export interface EngineVersionRun {
  engineVersion: string;
  fromSnapshotId: number;
  fromGeneratedAt: string;
}

export interface TrendEnvelope {
  instance: { instanceId: number; instanceName: string; arrType: ArrType };
  filter: TrendFilter;
  retention: TrendRetention;
  profileNames: string[];
  counts: TrendCounts;
  engineVersionRuns: EngineVersionRun[];
  points: TrendPoint[];
}

interface StoredUnit {
  score: number;
  band: HealthBand;
  criteria: { id: string; score: number | null; weight: number | null; contribution: number | null }[];
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const numOrNull = (v: unknown): number | null => (isNum(v) ? v : null);

/** Reads a stored ScoredUnit defensively; null when it is not one (the point is then not-recorded). */
function storedUnit(value: unknown): StoredUnit | null {
  if (value === null || typeof value !== 'object') return null;
  const u = value as Record<string, unknown>;
  if (!(HEALTH_BANDS as readonly string[]).includes(u.band as string) || !Array.isArray(u.criteria)) return null;
  if (u.band !== 'unknown' && !isNum(u.score)) return null;
  const criteria: StoredUnit['criteria'] = [];
  for (const c of u.criteria as unknown[]) {
    if (c === null || typeof c !== 'object' || typeof (c as { id?: unknown }).id !== 'string') return null;
    const r = c as Record<string, unknown>;
    criteria.push({ id: r.id as string, score: numOrNull(r.score), weight: numOrNull(r.weight), contribution: numOrNull(r.contribution) });
  }
  return { score: isNum(u.score) ? u.score : 0, band: u.band as HealthBand, criteria };
}

function storedProfiles(result: unknown): Map<string, unknown> | null {
  if (result === null || typeof result !== 'object') return null;
  const profiles = (result as { profiles?: unknown }).profiles;
  if (!Array.isArray(profiles)) return null;
  const out = new Map<string, unknown>();
  for (const p of profiles) {
    if (p === null || typeof p !== 'object' || typeof (p as { name?: unknown }).name !== 'string') return null;
    const name = (p as { name: string }).name;
    if (!out.has(name)) out.set(name, p);
  }
  return out;
}

const CRITERION_ORDER = new Map<string, number>(CRITERION_IDS.map((id, i) => [id, i]));

function observation(c: StoredUnit['criteria'][number]): TrendCriterion {
  const state: CriterionObservationState = c.weight === 0 ? 'disabled' : c.score === null ? 'skipped' : 'measured';
  return { id: c.id, state, score: state === 'measured' ? c.score : null, weight: c.weight, contribution: state === 'measured' ? c.contribution : null };
}

/** One point of a snapshot, for the overall scope (profile null) or one exact profile. */
export function trendPoint(row: HealthSnapshotRow, profile: string | null): TrendPoint {
  const base = { snapshotId: row.snapshotId, generatedAt: new Date(Date.parse(row.generatedAt)).toISOString(), engineVersion: row.engineVersion };
  const notRecorded: TrendPoint = { ...base, state: 'not-recorded', band: 'unknown', score: null, criteria: [] };
  if (!row.evidenceRecorded || row.result === null) return notRecorded;
  let unit: StoredUnit | null;
  if (profile === null) {
    unit = storedUnit((row.result as { overall?: unknown }).overall);
  } else {
    const profiles = storedProfiles(row.result);
    if (profiles === null) return notRecorded;
    if (!profiles.has(profile)) return { ...base, state: 'profile-missing', band: 'unknown', score: null, criteria: [] };
    unit = storedUnit(profiles.get(profile));
  }
  if (unit === null) return notRecorded;
  const criteria =
    profile === null
      ? [...unit.criteria]
          .map((c, i) => ({ c, i }))
          .sort((a, b) => (CRITERION_ORDER.get(a.c.id) ?? 99) - (CRITERION_ORDER.get(b.c.id) ?? 99) || a.i - b.i)
          .map(({ c }) => observation(c))
      : [];
  if (unit.band === 'unknown') return { ...base, state: 'unknown', band: 'unknown', score: null, criteria };
  return { ...base, state: 'measured', band: unit.band, score: unit.score, criteria };
}

function timeOf(row: HealthSnapshotRow): number {
  const ms = Date.parse(row.generatedAt);
  if (!Number.isFinite(ms)) throw new AppError('internal', 'a stored health snapshot has an invalid generation time');
  return ms;
}

/** generatedAt ascending, then snapshotId ascending. */
export function compareSnapshots(a: HealthSnapshotRow, b: HealthSnapshotRow): number {
  return timeOf(a) - timeOf(b) || a.snapshotId - b.snapshotId;
}

/** Observed availability over all of an instance's stored snapshots. */
export function availabilityOf(rows: HealthSnapshotRow[]): TrendRetention['availability'] {
  if (rows.length === 0) return { oldestSnapshotAt: null, newestSnapshotAt: null, totalSnapshots: 0 };
  let min = Infinity;
  let max = -Infinity;
  for (const r of rows) {
    const t = timeOf(r);
    if (t < min) min = t;
    if (t > max) max = t;
  }
  return { oldestSnapshotAt: new Date(min).toISOString(), newestSnapshotAt: new Date(max).toISOString(), totalSnapshots: rows.length };
}

export interface TrendRequest {
  instance: { instanceId: number; instanceName: string; arrType: ArrType };
  /** The instance's snapshots (at least those in the window; rows of other instances and outside the window are ignored). */
  rows: HealthSnapshotRow[];
  filter: TrendFilter;
  retention: TrendRetention;
}

/**
 * The canonical trend selection. Refuses whole (TrendLimitError) when more than TREND_POINT_CAP
 * snapshots fall in the window or a selected row's stored evidence is over EVIDENCE_BUDGET.
 */
export function buildTrend(request: TrendRequest): TrendEnvelope {
  const { instance, filter } = request;
  const fromMs = filter.from === null ? -Infinity : Date.parse(filter.from);
  const toMs = Date.parse(filter.to);
  const selected = request.rows
    .filter((r) => r.instanceId === instance.instanceId)
    .filter((r) => {
      const t = timeOf(r);
      return t >= fromMs && t <= toMs;
    })
    .sort(compareSnapshots);
  assertPointCap(selected.length);
  for (const row of selected) {
    if (!row.evidenceRecorded || row.result === null) continue;
    const size = measureEvidence(row.result);
    if (!withinEvidenceBudget(size)) {
      const over = size.bytes > EVIDENCE_BUDGET.maxBytes;
      throw new TrendLimitError(
        'evidence_over_budget',
        `Snapshot ${row.snapshotId} holds more evidence than an export row may (${over ? `${size.bytes} bytes, limit ${EVIDENCE_BUDGET.maxBytes}` : `${size.items} items, limit ${EVIDENCE_BUDGET.maxItems}`}); nothing was exported.`,
        over ? EVIDENCE_BUDGET.maxBytes : EVIDENCE_BUDGET.maxItems,
        over ? size.bytes : size.items,
      );
    }
  }

  const points = selected.map((r) => trendPoint(r, filter.profile));
  const names = new Set<string>();
  for (const row of selected) {
    if (!row.evidenceRecorded || row.result === null) continue;
    const profiles = storedProfiles(row.result);
    if (profiles) for (const name of profiles.keys()) names.add(name);
  }
  const counts: TrendCounts = { points: points.length, measured: 0, unknown: 0, profileMissing: 0, notRecorded: 0 };
  for (const p of points) {
    if (p.state === 'measured') counts.measured++;
    else if (p.state === 'unknown') counts.unknown++;
    else if (p.state === 'profile-missing') counts.profileMissing++;
    else counts.notRecorded++;
  }
  const engineVersionRuns: EngineVersionRun[] = [];
  for (const p of points) {
    const last = engineVersionRuns[engineVersionRuns.length - 1];
    if (!last || last.engineVersion !== p.engineVersion) engineVersionRuns.push({ engineVersion: p.engineVersion, fromSnapshotId: p.snapshotId, fromGeneratedAt: p.generatedAt });
  }
  return {
    instance: { instanceId: instance.instanceId, instanceName: instance.instanceName, arrType: instance.arrType },
    filter: { from: filter.from, to: filter.to, days: filter.days, profile: filter.profile },
    retention: request.retention,
    profileNames: [...names].sort(compareText),
    counts,
    engineVersionRuns,
    points,
  };
}
