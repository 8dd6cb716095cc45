/**
 * The release parser against Radarr's own parser fixtures (../shared/data/parser-cases/radarr-parser-cases.json):
 * every asserted field must agree. The figures are printed on every run.
 */
import fs from 'node:fs';
import { parseRelease } from '../../../src/domain/evaluation/release-parser';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';

const CASES = ['data', 'parser-cases', 'radarr-parser-cases.json'];

interface CaseRow {
  title: string;
  kind: 'quality' | 'release_group' | 'revision';
  expected: {
    source?: string;
    resolution?: number | null;
    resolution_asserted?: boolean;
    modifier?: string | null;
    modifier_asserted?: boolean;
    revision_version?: number;
    release_group?: string | null;
    is_repack?: boolean;
  };
}

type Field = 'source' | 'resolution' | 'modifier' | 'releaseGroup' | 'revision';

describeWithShared(CASES, 'release parser on Radarr parser cases', () => {
  const rows = JSON.parse(fs.readFileSync(sharedPath(...CASES), 'utf8')) as CaseRow[];
  const tally: Record<Field, { ok: number; total: number; misses: string[] }> = {
    source: { ok: 0, total: 0, misses: [] },
    resolution: { ok: 0, total: 0, misses: [] },
    modifier: { ok: 0, total: 0, misses: [] },
    releaseGroup: { ok: 0, total: 0, misses: [] },
    revision: { ok: 0, total: 0, misses: [] },
  };
  const check = (field: Field, title: string, actual: unknown, expected: unknown): void => {
    const t = tally[field];
    t.total++;
    if (actual === expected) t.ok++;
    else t.misses.push(`${title}  →  got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`);
  };

  beforeAll(() => {
    for (const row of rows) {
      const parsed = parseRelease(row.title, 'movie');
      const e = row.expected;
      if (row.kind === 'quality') {
        check('source', row.title, parsed?.source, e.source);
        if (e.resolution_asserted) check('resolution', row.title, parsed?.resolution, e.resolution);
        if (e.modifier_asserted) check('modifier', row.title, parsed?.modifier, e.modifier);
        check('revision', row.title, parsed?.revision.version, e.revision_version);
      } else if (row.kind === 'release_group') {
        check('releaseGroup', row.title, parsed?.releaseGroup ?? null, e.release_group ?? null);
      } else {
        check('revision', row.title, `${parsed?.revision.version}/${parsed?.revision.isRepack}`, `${e.revision_version}/${e.is_repack}`);
      }
    }
    const lines = (Object.keys(tally) as Field[]).map((field) => {
      const { ok, total, misses } = tally[field];
      const pct = total ? ((100 * ok) / total).toFixed(1) : '-';
      return `${field.padEnd(13)} ${String(ok).padStart(4)}/${String(total).padEnd(4)} ${pct}%${misses.map((m) => `\n    miss: ${m}`).join('')}`;
    });
    // eslint-disable-next-line no-console
    console.log(`release parser vs radarr-parser-cases.json (${rows.length} rows)\n${lines.join('\n')}`);
  });

  it.each(['source', 'resolution', 'modifier', 'releaseGroup', 'revision'] as Field[])('%s agrees on every asserted case', (field) => {
    const { ok, total } = tally[field];
    expect(total).toBeGreaterThan(0);
    expect(ok / total).toBe(1);
  });
});
