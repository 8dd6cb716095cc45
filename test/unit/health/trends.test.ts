/**
 * Health trends and export: query validation, canonical order with ties, point states, nullable
 * numbers against measured zeros, the exact profile filter, engine-version runs, the point cap and
 * evidence budgets (refused whole), the empty selection and a byte-for-byte CSV.
 */
import { AppError } from '../../../src/errors';
import {
  CSV_COLUMNS,
  EVIDENCE_BUDGET,
  TREND_POINT_CAP,
  TrendLimitError,
  availabilityOf,
  buildTrend,
  csvField,
  exportFilename,
  parseExportFormat,
  parseTrendFilter,
  renderTrendExport,
  scoreInstance,
  trendCsv,
  trendJson,
  type CriterionId,
  type HealthBand,
  type HealthResult,
  type HealthSnapshotRow,
  type ScoredUnit,
  type TrendFilter,
  type TrendRetention,
} from '../../../src/domain/health';
import { baseInput } from './fixtures';

// ---------------------------------------------------------------- fixture history

type C = [CriterionId, number | null, number, number];
const unit = (score: number, band: HealthBand, criteria: C[] = []): ScoredUnit => ({
  score,
  band,
  criteria: criteria.map(([id, s, weight, contribution]) => ({ id, label: id, score: s, weight, contribution, detail: [], suggestions: [] })),
  suggestions: [],
});
const result = (engineVersion: string, overall: ScoredUnit, profiles: Record<string, ScoredUnit> = {}): HealthResult => ({
  instanceId: 12,
  instanceName: 'Radarr 4K',
  arrType: 'movie_app',
  engineVersion,
  generatedAt: '2026-01-01T00:00:00.000Z',
  overall,
  profiles: Object.entries(profiles).map(([name, u]) => ({ name, ...u })),
});
const row = (snapshotId: number, generatedAt: string, engineVersion: string, r: HealthResult | null, evidenceRecorded = r !== null, instanceId = 12): HealthSnapshotRow => ({
  snapshotId,
  instanceId,
  generatedAt,
  engineVersion,
  result: r,
  evidenceRecorded,
});

const FULL: C[] = [
  ['completeness', 100, 25, 25],
  ['drift', 90, 30, 27],
  ['coherence', 100, 20, 20],
  ['compatibility', 100, 15, 15],
  ['ref_alignment', 50, 10, 5],
];
const DEGRADED: C[] = [
  ['completeness', null, 25, 0],
  ['drift', null, 30, 0],
  ['coherence', null, 0, 0],
  ['compatibility', null, 15, 0],
  ['ref_alignment', null, 10, 0],
];
const ZERO: C[] = [
  ['completeness', 0, 25, 0],
  ['drift', 0, 30, 0],
  ['coherence', 0, 20, 0],
  ['compatibility', 0, 15, 0],
  ['ref_alignment', null, 10, 0],
];
const ATTENTION: C[] = [
  ['completeness', 80, 25, 22],
  ['drift', 50, 30, 17],
  ['coherence', 75, 20, 17],
  ['compatibility', 100, 15, 17],
  ['ref_alignment', null, 0, 0],
];

const HISTORY: HealthSnapshotRow[] = [
  row(9, '2026-11-21T08:00:00.000Z', 'health-0.9.0', result('health-0.9.0', unit(73, 'attention', ATTENTION), { HD: unit(70, 'attention'), UHD: unit(40, 'needs-review') })),
  row(7, '2026-11-20T09:00:00+01:00', 'health-1.0.0', result('health-1.0.0', unit(0, 'unknown', DEGRADED), { HD: unit(0, 'unknown'), UHD: unit(0, 'unknown') })),
  row(3, '2026-11-19T08:00:00.000Z', 'health-0.9.0', null, false),
  row(8, '2026-11-22T08:00:00.000Z', 'health-1.0.0', result('health-1.0.0', unit(100, 'healthy', FULL))),
  row(6, '2026-11-20T08:00:00.000Z', 'health-1.0.0', result('health-1.0.0', unit(0, 'needs-review', ZERO), { HD: unit(0, 'needs-review') })),
  row(5, '2026-11-18T08:00:00.000Z', 'health-0.9.0', result('health-0.9.0', unit(92, 'healthy', FULL), { UHD: unit(88, 'healthy'), HD: unit(95, 'healthy') })),
  row(4, '2026-11-19T12:00:00.000Z', 'health-1.0.0', result('health-1.0.0', unit(10, 'needs-review', FULL)), true, 99),
];

const NOW = '2026-11-21T10:15:00.000Z';
const INSTANCE = { instanceId: 12, instanceName: 'Radarr 4K', arrType: 'movie_app' as const };
const RETENTION: TrendRetention = { policy: { retentionDays: 90, maxSnapshots: null }, availability: availabilityOf(HISTORY.filter((r) => r.instanceId === 12)) };
const trend = (query: Record<string, unknown>, rows = HISTORY) => buildTrend({ instance: INSTANCE, rows, filter: parseTrendFilter(query, NOW), retention: RETENTION });

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

// ---------------------------------------------------------------- filter

describe('trend filter', () => {
  it('defaults: unbounded from, to = the request time', () => {
    expect(parseTrendFilter({}, NOW)).toEqual({ from: null, to: NOW, days: null, profile: null });
    expect(parseTrendFilter({}, new Date(NOW))).toEqual({ from: null, to: NOW, days: null, profile: null });
  });

  it('from/to are ISO date-times with a zone, normalized to UTC', () => {
    expect(parseTrendFilter({ from: '2026-11-20T09:00:00+01:00', to: '2026-11-21T00:00Z' }, NOW)).toEqual({
      from: '2026-11-20T08:00:00.000Z',
      to: '2026-11-21T00:00:00.000Z',
      days: null,
      profile: null,
    });
    for (const bad of ['2026-11-20', '2026-11-20T08:00:00', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-20T24:00:00Z', 'yesterday', '', 5]) {
      expect(refusal(() => parseTrendFilter({ from: bad }, NOW)).publicMessage).toMatch(/^from must be an ISO 8601 date-time with a time zone/);
    }
    expect(refusal(() => parseTrendFilter({ to: 'nope' }, NOW)).publicMessage).toMatch(/^to must be/);
    expect(refusal(() => parseTrendFilter({ from: '2026-11-21T00:00:00Z', to: '2026-11-20T00:00:00Z' }, NOW)).publicMessage).toBe('from must not be after to');
    expect(refusal(() => parseTrendFilter({ from: '2026-11-22T00:00:00Z' }, NOW)).publicMessage).toBe('from must not be after to');
    expect(refusal(() => parseTrendFilter({ from: ['2026-11-20T00:00:00Z', '2026-11-21T00:00:00Z'] }, NOW)).publicMessage).toBe('from must be given once');
  });

  it('days is a relative UTC window ending now, not combinable with from or to', () => {
    expect(parseTrendFilter({ days: '7' }, NOW)).toEqual({ from: '2026-11-14T10:15:00.000Z', to: NOW, days: 7, profile: null });
    expect(parseTrendFilter({ days: '3650' }, NOW).days).toBe(3650);
    for (const bad of ['0', '-1', '1.5', '07', 'abc', '', '3651', ' 7']) {
      expect(refusal(() => parseTrendFilter({ days: bad }, NOW)).publicMessage).toBe('days must be an integer from 1 to 3650');
    }
    for (const q of [{ days: '7', from: '2026-11-01T00:00:00Z' }, { days: '7', to: '2026-11-01T00:00:00Z' }, { days: 'x', from: 'y' }]) {
      const e = refusal(() => parseTrendFilter(q, NOW));
      expect(e.kind).toBe('validation');
      expect(e.publicMessage).toBe('days cannot be combined with from or to');
    }
  });

  it('profile is exact and non-empty', () => {
    expect(parseTrendFilter({ profile: ' HD ' }, NOW).profile).toBe(' HD ');
    expect(refusal(() => parseTrendFilter({ profile: '' }, NOW)).publicMessage).toBe('profile must not be empty');
    expect(refusal(() => parseTrendFilter({ profile: 'x'.repeat(101) }, NOW)).publicMessage).toBe('profile must be at most 100 characters');
    expect(refusal(() => parseTrendFilter({ profile: ['HD', 'UHD'] }, NOW)).publicMessage).toBe('profile must be given once');
  });

  it('format: json by default, or csv', () => {
    expect(parseExportFormat(undefined)).toBe('json');
    expect(parseExportFormat('csv')).toBe('csv');
    expect(refusal(() => parseExportFormat('CSV')).publicMessage).toBe('format must be json or csv');
    expect(refusal(() => parseExportFormat(['csv', 'json'])).publicMessage).toBe('format must be given once');
  });
});

// ---------------------------------------------------------------- selection

describe('trend selection', () => {
  it('canonical order: generatedAt ascending, then snapshotId (ties across offsets); window and instance applied', () => {
    const t = trend({});
    expect(t.points.map((p) => [p.snapshotId, p.generatedAt])).toEqual([
      [5, '2026-11-18T08:00:00.000Z'],
      [3, '2026-11-19T08:00:00.000Z'],
      [6, '2026-11-20T08:00:00.000Z'],
      [7, '2026-11-20T08:00:00.000Z'],
      [9, '2026-11-21T08:00:00.000Z'],
    ]);
    expect(trend({ from: '2026-11-20T08:00:00Z', to: '2026-11-20T08:00:00Z' }).points.map((p) => p.snapshotId)).toEqual([6, 7]);
    expect(trend({ days: '2' }).points.map((p) => p.snapshotId)).toEqual([6, 7, 9]);
  });

  it('every point state, with nullable numbers distinct from measured zeros', () => {
    const points = trend({}).points;
    expect(points.map((p) => [p.snapshotId, p.state, p.band, p.score])).toEqual([
      [5, 'measured', 'healthy', 92],
      [3, 'not-recorded', 'unknown', null],
      [6, 'measured', 'needs-review', 0],
      [7, 'unknown', 'unknown', null],
      [9, 'measured', 'attention', 73],
    ]);
    const zero = points[2].criteria;
    expect(zero[0]).toEqual({ id: 'completeness', state: 'measured', score: 0, weight: 25, contribution: 0 });
    expect(zero[4]).toEqual({ id: 'ref_alignment', state: 'skipped', score: null, weight: 10, contribution: null });
    expect(points[3].criteria.map((c) => [c.state, c.score, c.contribution])).toEqual([
      ['skipped', null, null],
      ['skipped', null, null],
      ['disabled', null, null],
      ['skipped', null, null],
      ['skipped', null, null],
    ]);
    expect(points[1].criteria).toEqual([]);
    expect(points[4].criteria[4]).toEqual({ id: 'ref_alignment', state: 'disabled', score: null, weight: 0, contribution: null });
    expect(trend({}).counts).toEqual({ points: 5, measured: 3, unknown: 1, profileMissing: 0, notRecorded: 1 });
  });

  it('evidence recorded but result null, or a result without recorded evidence, is not-recorded', () => {
    const rows = [row(1, '2026-11-01T00:00:00Z', 'health-1.0.0', null, true), row(2, '2026-11-02T00:00:00Z', 'health-1.0.0', result('health-1.0.0', unit(90, 'healthy')), false)];
    expect(trend({}, rows).points.map((p) => p.state)).toEqual(['not-recorded', 'not-recorded']);
    const unreadable = [row(1, '2026-11-01T00:00:00Z', 'health-1.0.0', { overall: { band: 'great' } } as unknown as HealthResult)];
    expect(trend({}, unreadable).points[0].state).toBe('not-recorded');
  });

  it('exact profile filter: the profile unit, no criteria, profile-missing when absent; case-sensitive, no trimming', () => {
    const t = trend({ profile: 'UHD' });
    expect(t.filter).toEqual({ from: null, to: NOW, days: null, profile: 'UHD' });
    expect(t.points.map((p) => [p.snapshotId, p.state, p.band, p.score, p.criteria])).toEqual([
      [5, 'measured', 'healthy', 88, []],
      [3, 'not-recorded', 'unknown', null, []],
      [6, 'profile-missing', 'unknown', null, []],
      [7, 'unknown', 'unknown', null, []],
      [9, 'measured', 'needs-review', 40, []],
    ]);
    expect(t.counts).toEqual({ points: 5, measured: 2, unknown: 1, profileMissing: 1, notRecorded: 1 });
    for (const near of ['uhd', ' UHD', 'UHD ', 'Uhd']) {
      const n = trend({ profile: near });
      expect(n.counts).toEqual({ points: 5, measured: 0, unknown: 0, profileMissing: 4, notRecorded: 1 });
    }
    expect(t.profileNames).toEqual(['HD', 'UHD']);
  });

  it('profile names are the exact historical names in the window, in code-unit order', () => {
    const rows = [
      row(1, '2026-11-01T00:00:00Z', 'h', result('h', unit(90, 'healthy'), { b: unit(1, 'needs-review'), B: unit(1, 'needs-review'), ' a': unit(1, 'needs-review') })),
      row(2, '2026-11-02T00:00:00Z', 'h', result('h', unit(90, 'healthy'), { Ä: unit(1, 'needs-review'), B: unit(1, 'needs-review') })),
      row(3, '2026-12-02T00:00:00Z', 'h', result('h', unit(90, 'healthy'), { later: unit(1, 'needs-review') })),
    ];
    expect(trend({}, rows).profileNames).toEqual([' a', 'B', 'b', 'Ä']);
  });

  it('engine-version runs start where the version changes', () => {
    expect(trend({}).engineVersionRuns).toEqual([
      { engineVersion: 'health-0.9.0', fromSnapshotId: 5, fromGeneratedAt: '2026-11-18T08:00:00.000Z' },
      { engineVersion: 'health-1.0.0', fromSnapshotId: 6, fromGeneratedAt: '2026-11-20T08:00:00.000Z' },
      { engineVersion: 'health-0.9.0', fromSnapshotId: 9, fromGeneratedAt: '2026-11-21T08:00:00.000Z' },
    ]);
  });

  it('the envelope echoes instance, filter and retention', () => {
    const t = trend({ days: '3', profile: 'HD' });
    expect(Object.keys(t)).toEqual(['instance', 'filter', 'retention', 'profileNames', 'counts', 'engineVersionRuns', 'points']);
    expect(t.instance).toEqual(INSTANCE);
    expect(t.filter).toEqual({ from: '2026-11-18T10:15:00.000Z', to: NOW, days: 3, profile: 'HD' });
    expect(t.retention).toEqual({
      policy: { retentionDays: 90, maxSnapshots: null },
      availability: { oldestSnapshotAt: '2026-11-18T08:00:00.000Z', newestSnapshotAt: '2026-11-22T08:00:00.000Z', totalSnapshots: 6 },
    });
  });

  it('the empty selection: no points, zero counts, header-only CSV', () => {
    const t = trend({ from: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00Z' });
    expect(t.points).toEqual([]);
    expect(t.counts).toEqual({ points: 0, measured: 0, unknown: 0, profileMissing: 0, notRecorded: 0 });
    expect(t.engineVersionRuns).toEqual([]);
    expect(t.profileNames).toEqual([]);
    expect(trendCsv(t)).toBe('snapshotId,generatedAt,engineVersion,state,band,score,criteria\r\n');
    expect(JSON.parse(trendJson(t)).points).toEqual([]);
    expect(availabilityOf([])).toEqual({ oldestSnapshotAt: null, newestSnapshotAt: null, totalSnapshots: 0 });
  });

  it('works on real scoring output', () => {
    const r = scoreInstance(baseInput());
    const t = trend({ profile: 'HD' }, [row(1, r.generatedAt, r.engineVersion, r)]);
    expect(t.points[0]).toMatchObject({ state: 'measured', band: 'healthy', score: 100, criteria: [] });
    const overall = trend({}, [row(1, r.generatedAt, r.engineVersion, r)]).points[0];
    expect(overall.criteria.map((c) => [c.id, c.state, c.score, c.contribution])).toEqual(r.overall.criteria.map((c) => [c.id, 'measured', c.score, c.contribution]));
  });
});

// ---------------------------------------------------------------- limits

describe('limits', () => {
  const many = (n: number, outside = 0) => [
    ...Array.from({ length: n }, (_, i) => row(i + 1, new Date(Date.parse('2026-01-01T00:00:00Z') + i * 60_000).toISOString(), 'health-1.0.0', null, false)),
    ...Array.from({ length: outside }, (_, i) => row(n + i + 1, '2027-01-01T00:00:00Z', 'health-1.0.0', null, false)),
  ];

  it(`at most ${TREND_POINT_CAP} points; one more refuses the whole selection`, () => {
    const ok = trend({}, many(TREND_POINT_CAP, 5));
    expect(ok.points).toHaveLength(TREND_POINT_CAP);
    expect(trendCsv(ok).split('\r\n')).toHaveLength(TREND_POINT_CAP + 2);
    const e = refusal(() => trend({}, many(TREND_POINT_CAP + 1)));
    expect(e).toBeInstanceOf(TrendLimitError);
    expect(e).toMatchObject({ kind: 'payload_too_large', status: 413, code: 'too_many_points', limit: 10_000, actual: 10_001 });
    expect(e.details?.code).toBe('too_many_points');
    expect(e.publicMessage).toBe('The selection has 10001 points, more than the limit of 10000; narrow the window (from/to or days).');
    // narrowing the window is the way out
    expect(trend({ to: '2026-01-07T22:39:00Z' }, many(TREND_POINT_CAP + 1)).points).toHaveLength(TREND_POINT_CAP);
  });

  it('a stored row over its evidence budget (bytes or nested items) refuses the whole selection', () => {
    const big = result('health-1.0.0', unit(90, 'healthy', [['drift', 90, 30, 27]]));
    big.overall.criteria[0].detail = ['x'.repeat(EVIDENCE_BUDGET.maxBytes)];
    const bytes = refusal(() => trend({}, [row(1, '2026-11-01T00:00:00Z', 'h', result('h', unit(90, 'healthy'))), row(2, '2026-11-02T00:00:00Z', 'h', big)]));
    expect(bytes).toMatchObject({ code: 'evidence_over_budget', limit: EVIDENCE_BUDGET.maxBytes });
    const wide = result('health-1.0.0', unit(90, 'healthy', [['drift', 90, 30, 27]]));
    wide.overall.criteria[0].detail = Array.from({ length: EVIDENCE_BUDGET.maxItems }, () => '');
    const items = refusal(() => trend({}, [row(2, '2026-11-02T00:00:00Z', 'h', wide)]));
    expect(items).toMatchObject({ code: 'evidence_over_budget', limit: EVIDENCE_BUDGET.maxItems });
    expect(items.publicMessage).toMatch(/^Snapshot 2 holds more evidence than an export row may \(\d+ items, limit 20000\); nothing was exported\.$/);
    // outside the window it does not matter
    expect(trend({ to: '2026-11-01T12:00:00Z' }, [row(2, '2026-11-02T00:00:00Z', 'h', wide)]).points).toEqual([]);
  });
});

// ---------------------------------------------------------------- export

describe('export', () => {
  it('CSV: byte-for-byte for the fixture history', () => {
    const csv = trendCsv(trend({}));
    const full =
      '"[{""id"":""completeness"",""state"":""measured"",""score"":100,""weight"":25,""contribution"":25},' +
      '{""id"":""drift"",""state"":""measured"",""score"":90,""weight"":30,""contribution"":27},' +
      '{""id"":""coherence"",""state"":""measured"",""score"":100,""weight"":20,""contribution"":20},' +
      '{""id"":""compatibility"",""state"":""measured"",""score"":100,""weight"":15,""contribution"":15},' +
      '{""id"":""ref_alignment"",""state"":""measured"",""score"":50,""weight"":10,""contribution"":5}]"';
    const zero =
      '"[{""id"":""completeness"",""state"":""measured"",""score"":0,""weight"":25,""contribution"":0},' +
      '{""id"":""drift"",""state"":""measured"",""score"":0,""weight"":30,""contribution"":0},' +
      '{""id"":""coherence"",""state"":""measured"",""score"":0,""weight"":20,""contribution"":0},' +
      '{""id"":""compatibility"",""state"":""measured"",""score"":0,""weight"":15,""contribution"":0},' +
      '{""id"":""ref_alignment"",""state"":""skipped"",""score"":null,""weight"":10,""contribution"":null}]"';
    const degraded =
      '"[{""id"":""completeness"",""state"":""skipped"",""score"":null,""weight"":25,""contribution"":null},' +
      '{""id"":""drift"",""state"":""skipped"",""score"":null,""weight"":30,""contribution"":null},' +
      '{""id"":""coherence"",""state"":""disabled"",""score"":null,""weight"":0,""contribution"":null},' +
      '{""id"":""compatibility"",""state"":""skipped"",""score"":null,""weight"":15,""contribution"":null},' +
      '{""id"":""ref_alignment"",""state"":""skipped"",""score"":null,""weight"":10,""contribution"":null}]"';
    const attention =
      '"[{""id"":""completeness"",""state"":""measured"",""score"":80,""weight"":25,""contribution"":22},' +
      '{""id"":""drift"",""state"":""measured"",""score"":50,""weight"":30,""contribution"":17},' +
      '{""id"":""coherence"",""state"":""measured"",""score"":75,""weight"":20,""contribution"":17},' +
      '{""id"":""compatibility"",""state"":""measured"",""score"":100,""weight"":15,""contribution"":17},' +
      '{""id"":""ref_alignment"",""state"":""disabled"",""score"":null,""weight"":0,""contribution"":null}]"';
    const expected =
      'snapshotId,generatedAt,engineVersion,state,band,score,criteria\r\n' +
      `5,2026-11-18T08:00:00.000Z,health-0.9.0,measured,healthy,92,${full}\r\n` +
      '3,2026-11-19T08:00:00.000Z,health-0.9.0,not-recorded,unknown,,[]\r\n' +
      `6,2026-11-20T08:00:00.000Z,health-1.0.0,measured,needs-review,0,${zero}\r\n` +
      `7,2026-11-20T08:00:00.000Z,health-1.0.0,unknown,unknown,,${degraded}\r\n` +
      `9,2026-11-21T08:00:00.000Z,health-0.9.0,measured,attention,73,${attention}\r\n`;
    expect(csv).toBe(expected);
    expect(Buffer.from(csv, 'utf8').equals(Buffer.from(expected, 'utf8'))).toBe(true);
    expect(CSV_COLUMNS.join(',')).toBe('snapshotId,generatedAt,engineVersion,state,band,score,criteria');
    // reproducible: the same history in another order gives the same bytes
    expect(trendCsv(trend({}, [...HISTORY].reverse()))).toBe(expected);
  });

  it('CSV for a profile scope has empty criteria cells', () => {
    expect(trendCsv(trend({ profile: 'UHD' }))).toBe(
      'snapshotId,generatedAt,engineVersion,state,band,score,criteria\r\n' +
        '5,2026-11-18T08:00:00.000Z,health-0.9.0,measured,healthy,88,[]\r\n' +
        '3,2026-11-19T08:00:00.000Z,health-0.9.0,not-recorded,unknown,,[]\r\n' +
        '6,2026-11-20T08:00:00.000Z,health-1.0.0,profile-missing,unknown,,[]\r\n' +
        '7,2026-11-20T08:00:00.000Z,health-1.0.0,unknown,unknown,,[]\r\n' +
        '9,2026-11-21T08:00:00.000Z,health-0.9.0,measured,needs-review,40,[]\r\n',
    );
  });

  it('RFC 4180 quoting', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(0)).toBe('0');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('JSON: the envelope, reproducible', () => {
    const t = trend({});
    const json = trendJson(t);
    expect(JSON.parse(json)).toEqual(t);
    expect(trendJson(trend({}, [...HISTORY].reverse()))).toBe(json);
    expect(json.startsWith('{"instance":{"instanceId":12,"instanceName":"Radarr 4K","arrType":"movie_app"},"filter":{"from":null,"to":"2026-11-21T10:15:00.000Z","days":null,"profile":null},"retention":')).toBe(true);
  });

  it('filename and headers', () => {
    expect(exportFilename(12, '2026-11-21T10:15:00.789Z', 'csv')).toBe('arrgo-health-12-20261121T101500Z.csv');
    expect(exportFilename(12, new Date('2026-11-21T11:15:00+01:00'), 'json')).toBe('arrgo-health-12-20261121T101500Z.json');
    expect(refusal(() => exportFilename(1.5, NOW, 'csv')).kind).toBe('validation');
    const filter: TrendFilter = parseTrendFilter({}, NOW);
    const out = renderTrendExport(buildTrend({ instance: INSTANCE, rows: HISTORY, filter, retention: RETENTION }), 'csv', NOW);
    expect(out.filename).toBe('arrgo-health-12-20261121T101500Z.csv');
    expect(out.headers).toEqual({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="arrgo-health-12-20261121T101500Z.csv"',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    expect(out.body).toBe(trendCsv(trend({})));
    expect(renderTrendExport(trend({}), 'json', NOW).headers['Content-Type']).toBe('application/json; charset=utf-8');
  });
});
