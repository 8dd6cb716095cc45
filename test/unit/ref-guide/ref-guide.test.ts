import fs from 'node:fs';
import path from 'node:path';
import { planImport, readEntity, type CustomFormatData } from '../../../src/domain/pcd';
import {
  alignWithGuide,
  derivedRefId,
  desiredSpecKeys,
  guideFormatToPcd,
  guideProfileToPcd,
  guideQualitySizeToPcd,
  guideSpecKeys,
  mergeFamilyFormat,
  parseTrashGuides,
  planCacheReplacement,
  scoreInSet,
  type GuideFile,
} from '../../../src/domain/ref-guide';
import { emptySelection, enumText, enumValue, readSyncSource, type EnumKind } from '../../../src/domain/sync';
import { NODE_DIGESTS } from '../../../src/services/ref-guide/digests';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';
import { TRASH_PCD_PARTS } from '../pcd/helpers';
import { trashDatabase } from '../sync/helpers';

const GUIDES = ['data', 'trash-guides'];
const parse = (arrType: 'movie_app' | 'series_app', files: GuideFile[]) => parseTrashGuides(arrType, files, NODE_DIGESTS);

function guideFiles(app: 'radarr' | 'sonarr'): GuideFile[] {
  const root = sharedPath(...GUIDES);
  const files: GuideFile[] = [];
  for (const dir of ['cf', 'cf-groups', 'quality-profiles', 'quality-size', 'naming', 'dummy-files']) {
    const absolute = path.join(root, 'docs', 'json', app, dir);
    for (const name of fs.readdirSync(absolute)) files.push({ path: `docs/json/${app}/${dir}/${name}`, text: fs.readFileSync(path.join(absolute, name), 'utf8') });
  }
  return files;
}

const cf = (over: Record<string, unknown> = {}) => ({
  trash_id: 'a'.repeat(32),
  name: 'Example',
  trash_scores: { default: 10, 'sqp-1': 20 },
  specifications: [{ name: 'x265', implementation: 'ReleaseTitleSpecification', negate: false, required: true, fields: { value: '\\bx265\\b' } }],
  ...over,
});
const file = (p: string, json: unknown): GuideFile => ({ path: p, text: JSON.stringify(json) });

describe('parseTrashGuides (small fixtures)', () => {
  it('keys entities by trash_id, derives ids for naming, scores profiles from their score set', () => {
    const parsed = parse('movie_app', [
      file('docs/json/radarr/cf/example.json', cf()),
      file('docs/json/radarr/cf/other.json', cf({ trash_id: 'b'.repeat(32), name: 'Other', trash_scores: { default: -5 } })),
      file('docs/json/radarr/quality-profiles/p.json', { trash_id: 'c'.repeat(32), name: 'P', trash_score_set: 'sqp-1', group: 7, formatItems: { Example: 'a'.repeat(32), Other: 'b'.repeat(32), Gone: 'd'.repeat(32) } }),
      file('docs/json/radarr/naming/radarr-naming.json', { folder: { default: '{Movie Title}' } }),
      file('docs/json/sonarr/cf/ignored.json', cf({ trash_id: 'e'.repeat(32) })),
      file('docs/json/radarr/dummy-files/ignored.json', { name: 'dummy' }),
    ]);
    if (!parsed.ok) throw new Error('parse failed');
    const byType = Object.fromEntries(parsed.entities.map((e) => [e.type + ':' + e.name, e]));
    expect(Object.keys(byType).sort()).toEqual(['custom_format:Example', 'custom_format:Other', 'naming:radarr-naming', 'quality_profile:P']);
    expect(byType['custom_format:Example']).toMatchObject({ refId: 'a'.repeat(32), scores: { default: 10, 'sqp-1': 20 }, group: null, filePath: 'docs/json/radarr/cf/example.json' });
    expect(byType['quality_profile:P']).toMatchObject({ group: 7, scores: { Example: 20, Other: -5, Gone: 0 } });
    expect(byType['naming:radarr-naming'].refId).toBe(derivedRefId('naming', 'docs/json/radarr/naming/radarr-naming.json', NODE_DIGESTS));
    expect(byType['naming:radarr-naming'].refId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('hashes content independently of key order, and fails on a file that is not a JSON object', () => {
    const a = parse('movie_app', [file('docs/json/radarr/cf/x.json', cf())]);
    const reordered = Object.fromEntries(Object.entries(cf()).reverse());
    const b = parse('movie_app', [file('docs/json/radarr/cf/x.json', reordered)]);
    expect(a.ok && b.ok && a.entities[0].hash === b.entities[0].hash).toBe(true);
    expect(parse('movie_app', [{ path: 'docs/json/radarr/cf/x.json', text: '[1]' }])).toEqual({ ok: false, reason: 'guide_invalid', file: 'docs/json/radarr/cf/x.json' });
    expect(parse('movie_app', [file('docs/json/sonarr/cf/x.json', cf())])).toEqual({ ok: false, reason: 'guide_missing', file: null });
    const dup = parse('movie_app', [file('docs/json/radarr/cf/a.json', cf()), file('docs/json/radarr/cf/b.json', cf({ name: 'Copy' }))]);
    expect(dup.ok && dup.duplicates).toEqual(['docs/json/radarr/cf/b.json']);
  });

  it('falls back to the default score, then 0', () => {
    expect(scoreInSet({ default: 5, x: 9 }, 'x')).toBe(9);
    expect(scoreInSet({ default: 5 }, 'x')).toBe(5);
    expect(scoreInSet({}, 'x')).toBe(0);
    expect(scoreInSet(null, 'x')).toBe(0);
  });
});

describe('planCacheReplacement', () => {
  it('inserts new, rewrites changed, removes vanished and leaves unchanged rows alone', () => {
    const parsed = parse('movie_app', [file('docs/json/radarr/cf/a.json', cf()), file('docs/json/radarr/cf/b.json', cf({ trash_id: 'b'.repeat(32), name: 'B' }))]);
    if (!parsed.ok) throw new Error('parse failed');
    const [a, b] = parsed.entities;
    const plan = planCacheReplacement(
      [
        { id: 1, type: 'custom_format', refId: a.refId, contentHash: a.hash },
        { id: 2, type: 'custom_format', refId: b.refId, contentHash: 'old' },
        { id: 3, type: 'custom_format', refId: 'f'.repeat(32), contentHash: 'x' },
      ],
      [...parsed.entities, { ...a, type: 'quality_profile' }],
    );
    expect(plan).toEqual({ insert: [{ ...a, type: 'quality_profile' }], update: [{ id: 2, entity: b }], remove: [3], unchanged: 1 });
  });
});

describe('enumText', () => {
  it('reads back through enumValue for every canonical value', () => {
    const kinds: [EnumKind, 'movie_app' | 'series_app', number[]][] = [
      ['source', 'movie_app', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
      ['source', 'series_app', [0, 1, 2, 3, 4, 5, 6, 7]],
      ['resolution', 'movie_app', [360, 480, 540, 576, 720, 1080, 2160]],
      ['quality_modifier', 'movie_app', [0, 1, 2, 3, 4, 5]],
      ['release_type', 'series_app', [0, 1, 2, 3]],
      ['indexer_flag', 'movie_app', [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]],
      ['indexer_flag', 'series_app', [1, 2, 4, 8, 16, 32, 64, 128]],
    ];
    for (const [kind, arrType, values] of kinds) for (const v of values) expect([kind, arrType, v, enumValue(kind, arrType, enumText(kind, arrType, v)!)]).toEqual([kind, arrType, v, v]);
    expect(enumText('source', 'series_app', 7)).toBe('bluray_raw');
    expect(enumText('source', 'movie_app', 99)).toBeNull();
  });
});

describe('guide entities as PCD data', () => {
  it('converts every condition type and names regular expressions through the callback', () => {
    const converted = guideFormatToPcd(
      cf({
        specifications: [
          { name: 'x265', implementation: 'ReleaseTitleSpecification', negate: false, required: true, fields: { value: 'x265' } },
          { name: 'Not French', implementation: 'LanguageSpecification', negate: true, required: false, fields: { value: 2, exceptLanguage: false } },
          { name: 'WEB', implementation: 'SourceSpecification', negate: false, required: false, fields: [{ name: 'value', value: 7 }] },
          { name: '2160p', implementation: 'ResolutionSpecification', negate: false, required: true, fields: { value: 2160 } },
          { name: 'Remux', implementation: 'QualityModifierSpecification', negate: false, required: false, fields: { value: 5 } },
          { name: 'Big', implementation: 'SizeSpecification', negate: false, required: false, fields: { min: 1, max: 2 } },
        ],
      }),
      'movie_app',
      (need) => `re:${need.specName}`,
    );
    expect(converted).toEqual({
      ok: true,
      patterns: [{ name: 're:x265', pattern: 'x265' }],
      format: {
        name: 'Example',
        description: null,
        includeInRename: false,
        tags: [],
        tests: [],
        conditions: [
          { name: 'x265', arrType: 'movie_app', negate: false, required: true, type: 'release_title', regularExpression: 're:x265' },
          { name: 'Not French', arrType: 'movie_app', negate: true, required: false, type: 'language', language: 'French', exceptLanguage: false },
          { name: 'WEB', arrType: 'movie_app', negate: false, required: false, type: 'source', source: 'web_dl' },
          { name: '2160p', arrType: 'movie_app', negate: false, required: true, type: 'resolution', resolution: '2160p' },
          { name: 'Remux', arrType: 'movie_app', negate: false, required: false, type: 'quality_modifier', qualityModifier: 'remux' },
          { name: 'Big', arrType: 'movie_app', negate: false, required: false, type: 'size', minBytes: 1073741824, maxBytes: 2147483648 },
        ],
      },
    });
    expect(guideFormatToPcd(cf(), 'movie_app', () => null)).toEqual({ ok: false, reason: 'regular expression "x265" exists in the database with a different pattern' });
    expect(guideFormatToPcd(cf({ specifications: [{ name: 'x', implementation: 'Nope', fields: {} }] }), 'movie_app', () => 'x')).toEqual({ ok: false, reason: 'specification "x" has an unknown implementation' });
  });
});

describe('a guide quality size as quality definitions', () => {
  const size = { trash_id: 'b'.repeat(32), type: 'series', qualities: [{ quality: 'WEBDL-1080p', min: 15, preferred: 995, max: 1000 }, { quality: 'Bluray-720p', min: 10, preferred: 995, max: 1000 }] };
  it("takes the guide's sizes under the PCD quality names (a max at the app's limit is no limit), or puts each preferred size at a ratio between min and max", () => {
    expect(guideQualitySizeToPcd(size, 'series_app', 'series')).toEqual({
      ok: true,
      definitions: { name: 'series', entries: [{ quality: 'WEBDL-1080p', minSize: 15, maxSize: 0, preferredSize: 995 }, { quality: 'Bluray-720p', minSize: 10, maxSize: 0, preferredSize: 995 }] },
    });
    const quarter = guideQualitySizeToPcd(size, 'series_app', 'series (preferred 0.25)', 0.25);
    // 15 + 985 / 4 = 261.25 and 10 + 990 / 4 = 257.5: a midpoint goes to the even tenth.
    expect(quarter.ok && quarter.definitions.entries.map((e) => e.preferredSize)).toEqual([261.2, 257.5]);
    const below = guideQualitySizeToPcd({ ...size, qualities: [{ quality: 'Bluray-720p', min: 69.1, preferred: 90, max: 100 }] }, 'series_app', 's', 0.5);
    expect(below.ok && below.definitions.entries).toEqual([{ quality: 'Bluray-720p', minSize: 69.1, maxSize: 100, preferredSize: 84.6 }]); // 84.55 -> 84.6
    expect(guideQualitySizeToPcd({ ...size, qualities: [{ quality: 'Nope', min: 1, preferred: 2, max: 3 }] }, 'series_app', 's')).toEqual({ ok: false, reason: 'quality "Nope" is not a quality of the app' });
    expect(guideQualitySizeToPcd({ ...size, qualities: [{ quality: 'Bluray-720p', min: 1, max: 3 }] }, 'series_app', 's')).toEqual({ ok: false, reason: 'quality "Bluray-720p" lacks a min, preferred or max size' });
  });
});

describe('a guide format merged into the database format of the same name, for one app family', () => {
  type Condition = CustomFormatData['conditions'][number];
  const title = (name: string, arrType: Condition['arrType'], regularExpression: string): Condition => ({ name, type: 'release_title', arrType, negate: false, required: true, regularExpression });
  const notUhd = (arrType: Condition['arrType']): Condition => ({ name: 'Not 2160p', type: 'resolution', arrType, negate: true, required: true, resolution: '2160p' });
  const data = (conditions: Condition[]): CustomFormatData => ({ name: 'x265 (HD)', description: 'the database own', includeInRename: false, tags: ['mine'], conditions, tests: [] });
  const patterns: Record<string, string> = { x265: 'own', 'x265 (guide)': 'guide', Extras: 'movie extras', 'Extras (series)': 'series extras' };
  const patternOf = (name: string) => patterns[name];

  it("gives the family the guide's conditions and keeps the other families' (a shared condition that differs is scoped to each of them)", () => {
    const existing = data([title('x265', 'all', 'x265'), notUhd('all')]);
    const radarr = mergeFamilyFormat(existing, data([title('x265', 'movie_app', 'x265 (guide)'), notUhd('movie_app')]), 'movie_app', patternOf);
    expect(radarr).toEqual({
      matches: false,
      format: {
        ...existing,
        conditions: [notUhd('all'), title('x265 (Sonarr)', 'series_app', 'x265'), title('x265 (Lidarr)', 'music_app', 'x265'), title('x265', 'movie_app', 'x265 (guide)')],
      },
    });
    if (radarr.matches) return;
    // Then Sonarr's guide format (the same as Radarr's): Lidarr keeps the database's own condition.
    const sonarr = mergeFamilyFormat(radarr.format, data([title('x265', 'series_app', 'x265 (guide)'), notUhd('series_app')]), 'series_app', patternOf);
    expect(sonarr).toEqual({
      matches: false,
      format: { ...existing, conditions: [title('x265 (Lidarr)', 'music_app', 'x265'), title('x265', 'movie_app', 'x265 (guide)'), notUhd('all'), title('x265 (Sonarr)', 'series_app', 'x265 (guide)')] },
    });
    if (sonarr.matches) return;
    // Each family now receives the guide's definition: merging again changes nothing.
    expect(mergeFamilyFormat(sonarr.format, data([title('x265', 'series_app', 'x265 (guide)'), notUhd('series_app')]), 'series_app', patternOf)).toEqual({ matches: true });
    expect(mergeFamilyFormat(sonarr.format, data([title('x265', 'movie_app', 'x265 (guide)'), notUhd('movie_app')]), 'movie_app', patternOf)).toEqual({ matches: true });
  });

  it('scopes a guide condition whose name another family holds with a different pattern, and takes the guide includeInRename', () => {
    const existing = data([title('Extras', 'movie_app', 'Extras')]);
    const merged = mergeFamilyFormat(existing, { ...data([title('Extras', 'series_app', 'Extras (series)')]), includeInRename: true }, 'series_app', patternOf);
    expect(merged).toEqual({ matches: false, format: { ...existing, includeInRename: true, conditions: [title('Extras', 'movie_app', 'Extras'), title('Extras (Sonarr)', 'series_app', 'Extras (series)')] } });
    // A pattern is compared by its text, not by its regular expression name.
    expect(mergeFamilyFormat(existing, data([title('Extras', 'movie_app', 'Extras copy')]), 'movie_app', (n) => (n === 'Extras copy' ? 'movie extras' : patternOf(n)))).toEqual({ matches: true });
  });
});

describeWithShared(GUIDES, 'the real TRaSH Guides', () => {
  it.each([['radarr', 'movie_app'], ['sonarr', 'series_app']] as const)('parse every %s entity and convert every custom format and profile', (app, arrType) => {
    const parsed = parse(arrType, guideFiles(app));
    if (!parsed.ok) throw new Error(`parse failed: ${parsed.reason}`);
    expect(parsed.duplicates).toEqual([]);
    const formats = parsed.entities.filter((e) => e.type === 'custom_format');
    expect(formats.length).toBe(fs.readdirSync(sharedPath(...GUIDES, 'docs', 'json', app, 'cf')).length);
    for (const format of formats) {
      const converted = guideFormatToPcd(format.entity, arrType, (n) => n.specName);
      expect([format.name, converted.ok]).toEqual([format.name, true]);
      // The conversion reads back to the guide's own specifications.
      if (converted.ok) {
        const patterns = Object.fromEntries(converted.patterns.map((p) => [p.name, p.pattern]));
        expect([format.name, desiredSpecKeys(converted.format, arrType, patterns)]).toEqual([format.name, guideSpecKeys(format.entity)]);
      }
    }
    for (const profile of parsed.entities.filter((e) => e.type === 'quality_profile')) {
      const converted = guideProfileToPcd(profile.entity, arrType, profile.scores ?? {});
      expect([profile.name, converted.ok]).toEqual([profile.name, true]);
    }
  });
});

describeWithShared([...TRASH_PCD_PARTS], 'alignment of trash-pcd with the TRaSH Guides', () => {
  const parsed = parse('movie_app', guideFiles('radarr'));
  if (!parsed.ok) throw new Error('parse failed');
  const guideFormats = parsed.entities.filter((e) => e.type === 'custom_format').map((e) => ({ refId: e.refId, name: e.name, entity: e.entity }));
  const guideProfiles = parsed.entities
    .filter((e) => e.type === 'quality_profile')
    .map((e) => ({ refId: e.refId, name: e.name, scoreSet: String(e.entity.trash_score_set ?? 'default'), scores: e.scores ?? {} }));

  it('finds trash-pcd mostly aligned, names what differs, and sees an edit', () => {
    const source = readSyncSource(trashDatabase(), 'movie_app', { ...emptySelection(), qualityProfiles: ['HD Bluray + WEB', 'Remux + WEB 1080p'] });
    const input = { arrType: 'movie_app' as const, formats: source.customFormats, patterns: source.regularExpressions, profiles: source.qualityProfiles, guideFormats, guideProfiles };
    const aligned = alignWithGuide(input);
    expect(aligned.total).toBeGreaterThan(20);
    expect(aligned.matched / aligned.total).toBeGreaterThan(0.8);
    expect(aligned.total - aligned.matched).toBe(aligned.differences.length);
    expect(Object.keys(aligned.perProfile).sort()).toEqual(['HD Bluray + WEB', 'Remux + WEB 1080p']);

    const edited: CustomFormatData[] = [...source.customFormats];
    const target = edited.findIndex((f) => !aligned.differences.some((d) => d.includes(`"${f.name}"`)) && guideFormats.some((g) => g.name === f.name));
    edited[target] = { ...edited[target], conditions: edited[target].conditions.map((c) => ({ ...c, negate: !c.negate })) };
    const after = alignWithGuide({ ...input, formats: edited });
    expect(after.matched).toBe(aligned.matched - 1);
    expect(after.differences).toContain(`Custom format "${edited[target].name}": conditions differ from the guide's`);

    // Score entries: the guide profile's formatItems, scored from its score set.
    const profile = source.qualityProfiles[0];
    const guideProfile = guideProfiles.find((p) => p.name === profile.name)!;
    const scoredFormat = Object.keys(guideProfile.scores)[0];
    expect(aligned.perProfile[profile.name].total).toBeGreaterThan(Object.keys(guideProfile.scores).length);
    const rescored = { ...profile, customFormats: { ...profile.customFormats, movie_app: profile.customFormats.movie_app.map((s) => (s.name === scoredFormat ? { ...s, score: s.score + 1 } : s)) } };
    const scored = alignWithGuide({ ...input, profiles: [rescored, ...source.qualityProfiles.slice(1)] });
    expect(scored.matched).toBe(aligned.matched - 1);
    expect(scored.perProfile[profile.name].matched).toBe(aligned.perProfile[profile.name].matched - 1);
    expect(scored.differences).toContain(
      `Quality profile "${profile.name}": "${scoredFormat}" scores ${guideProfile.scores[scoredFormat] + 1}, the guide's ${guideProfile.scoreSet} score set gives ${guideProfile.scores[scoredFormat]}`,
    );
  });

  it('plans guide imports that the PCD import planner accepts', () => {
    const db = trashDatabase();
    const format = parsed.entities.find((e) => e.type === 'custom_format' && e.name === '1080p')!;
    const converted = guideFormatToPcd(format.entity, 'movie_app', (n) => n.specName);
    if (!converted.ok) throw new Error(converted.reason);
    expect(readEntity(db, 'custom_format', '1080p')).not.toBeNull();
    expect(() => planImport(db, { entityType: 'custom_format', data: converted.format })).toThrow('already exists');
    expect(planImport(db, { entityType: 'custom_format', data: { ...converted.format, name: '1080p (guide)' } }).target).toEqual({ portableType: 'custom_format', name: '1080p (guide)' });
  });
});
