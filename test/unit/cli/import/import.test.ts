import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fleetFileText } from '../../../../src/cli/fleet/export';
import { loadFleet } from '../../../../src/cli/fleet/load';
import { editedProfile, groupMembers, type ProfileEdit } from '../../../../src/cli/import/apply';
import { fleetInstance, fleetSecret } from '../../../../src/cli/import/fleet';
import { readToolConfig, ToolFileError, type ToolConfig } from '../../../../src/cli/import/read';

const FIXTURES = path.join(__dirname, '../../../fixtures/import');
const read = async (tool: 'recyclarr' | 'configarr') => readToolConfig(await readFile(path.join(FIXTURES, `${tool}.yml`), 'utf8'), tool, `${tool}.yml`);
const lineOf = async (tool: string, text: string) => (await readFile(path.join(FIXTURES, `${tool}.yml`), 'utf8')).split('\n').findIndex((l) => l.includes(text)) + 1;

describe('readToolConfig: Recyclarr', () => {
  let config: ToolConfig;
  beforeAll(async () => {
    config = await read('recyclarr');
  });

  it('reads instances, profiles, scores, groups and quality definitions', async () => {
    expect(config.instances.map((i) => [i.section, i.name, i.baseUrl, i.apiKey])).toEqual([
      ['radarr', 'movies-main', 'http://127.0.0.1:17878/', { secret: 'radarr_main_key' }],
      ['sonarr', 'series-main', 'http://127.0.0.1:18989', { env: 'SERIES_MAIN_KEY' }],
    ]);
    const movies = config.instances[0];
    expect(movies.qualityProfiles).toEqual([
      expect.objectContaining({ trashId: 'd1d67249d3890e49bc12e275d989a7e9', resetUnmatched: { except: [], exceptPatterns: [] } }),
      expect.objectContaining({ name: 'House Movies', minFormatScore: 10, upgradesAllowed: true, upgradeUntilScore: 2000 }),
    ]);
    expect(movies.customFormats.map((c) => [c.trashIds, c.targets.map((t) => [t.name ?? t.trashId, t.score])])).toEqual([
      [['496f355514737f7d83bf7aa4d24f8169'], [['d1d67249d3890e49bc12e275d989a7e9', 120]]],
      [['ed38b889b31be83fda192888e2286d83'], [['House Movies', undefined]]],
    ]);
    expect(movies.skipGroups).toEqual(['d9cc9a504e5ede6294c8b973aad4f028']);
    expect(movies.qualityDefinition).toEqual({ type: 'movie', line: (await lineOf('recyclarr', 'quality_definition:')) + 1 });
    expect(config.instances[1].qualityDefinition).toEqual({ type: 'series', preferredRatio: 0.5, line: (await lineOf('recyclarr', '    quality_definition: {')) });
    expect(movies.groups).toEqual([expect.objectContaining({ trashId: 'f737e18b5824d6ebb2d57b957ae2fd6c', selectAll: true, targets: [expect.objectContaining({ trashId: 'd1d67249d3890e49bc12e275d989a7e9' })] })]);
  });

  it('reports every construct it does not carry over, with its line', async () => {
    const reported = config.notCarried.map((p) => `${p.line}: ${p.message.split(':')[0]}`);
    expect(reported).toEqual([
      `${await lineOf('recyclarr', 'delete_old_custom_formats')}: radarr.movies-main.delete_old_custom_formats`,
      `${await lineOf('recyclarr', 'replace_existing_custom_formats')}: radarr.movies-main.replace_existing_custom_formats`,
      `${await lineOf('recyclarr', '    include:')}: radarr.movies-main.include`,
      `${await lineOf('recyclarr', 'media_naming:')}: radarr.movies-main.media_naming`,
      `${await lineOf('recyclarr', 'until_quality:')}: radarr.movies-main.quality_profiles[House Movies].upgrade.until_quality`,
      `${await lineOf('recyclarr', '        qualities:')}: radarr.movies-main.quality_profiles[House Movies].qualities`,
    ]);
    expect(config.notCarried.every((p) => p.file === 'recyclarr.yml')).toBe(true);
  });

  it('reads the older quality_profiles of a custom_formats entry as assign_scores_to', () => {
    const config = readToolConfig('sonarr:\n  s:\n    base_url: http://x\n    api_key: !env_var K\n    custom_formats:\n      - trash_ids: [abc]\n        quality_profiles:\n          - name: Anime\n            score: 7\n', 'recyclarr', 'old.yml');
    expect(config.instances[0].customFormats).toEqual([{ trashIds: ['abc'], targets: [{ name: 'Anime', score: 7, line: 8 }], line: 6 }]);
    expect(config.notCarried).toEqual([]);
  });

  it('refuses a file that is not YAML with its line', () => {
    expect(() => readToolConfig('radarr:\n  a: [1,\n', 'recyclarr', 'bad.yml')).toThrow(ToolFileError);
    try {
      readToolConfig('radarr:\n  a: [1,\n', 'recyclarr', 'bad.yml');
    } catch (error) {
      expect((error as ToolFileError).problems[0]).toMatchObject({ file: 'bad.yml', line: expect.any(Number) });
    }
  });
});

describe('readToolConfig: Configarr', () => {
  it('reads its tags and group form; reports its own keys and foreign apps with their lines', async () => {
    const config = await read('configarr');
    expect(config.instances.map((i) => [i.section, i.name, i.apiKey, i.enabled])).toEqual([
      ['radarr', 'movies-4k', { env: 'MOVIES_4K_KEY' }, true],
      ['lidarr', 'music', { secret: 'LIDARR_KEY' }, false],
    ]);
    expect(config.instances[0].groups).toEqual([expect.objectContaining({ trashId: 'f737e18b5824d6ebb2d57b957ae2fd6c', targets: [expect.objectContaining({ name: 'HD Bluray + WEB' })] })]);
    const reported = config.notCarried.map((p) => `${p.line}: ${p.message.split(':')[0]}`);
    expect(reported).toEqual([
      `${await lineOf('configarr', 'trashGuideUrl')}: trashGuideUrl`,
      `${await lineOf('configarr', 'recyclarrConfigUrl')}: recyclarrConfigUrl`,
      `${await lineOf('configarr', 'localCustomFormatsPath')}: localCustomFormatsPath`,
      `${await lineOf('configarr', 'customFormatDefinitions')}: customFormatDefinitions`,
      `${await lineOf('configarr', '    include:')}: radarr.movies-4k.include`,
      `${(await lineOf('configarr', 'trash_ids: [aaaa')) - 1}: lidarr.music.custom_formats`,
      `${await lineOf('configarr', 'whisparr:')}: whisparr`,
    ]);
  });
});

describe('the fleet file of an import', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arrgo-import-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps !env, maps !secret to !env and says so, and is a valid fleet file', async () => {
    const config = await read('recyclarr');
    const [movies, series] = config.instances;
    const m = fleetSecret(movies, config, 'recyclarr.yml');
    expect(m.apiKey).toEqual({ env: 'RADARR_MAIN_KEY' });
    expect(m.note?.message).toContain('!secret radarr_main_key became !env RADARR_MAIN_KEY');
    const s = fleetSecret(series, config, 'recyclarr.yml');
    expect(s).toEqual({ apiKey: { env: 'SERIES_MAIN_KEY' } });
    const inline = fleetSecret({ ...series, name: 'x y', apiKey: { inline: true } }, config, 'recyclarr.yml');
    expect(inline.apiKey).toEqual({ env: 'ARRGO_INSTANCE_X_Y_API_KEY' });
    const content = {
      version: 1,
      databases: [{ name: 'mine', source: { local: '/srv/pcd/mine' } }],
      instances: [fleetInstance(movies, m.apiKey, 'mine', ['HD Bluray + WEB', 'House Movies']), fleetInstance(series, s.apiKey, 'mine', [])],
    };
    const text = fleetFileText(content, 'http://localhost:7979/api/v1/fleet/schema', 'imported');
    expect(text).toContain('apiKey: !env RADARR_MAIN_KEY');
    await writeFile(path.join(dir, 'arrgo.yaml'), text);
    const fleet = await loadFleet('arrgo.yaml', { cwd: dir });
    expect(fleet.instances).toEqual([
      { name: 'movies-main', type: 'movie_app', baseUrl: 'http://127.0.0.1:17878', apiKey: { env: 'RADARR_MAIN_KEY' }, sync: [{ database: 'mine', qualityProfiles: ['HD Bluray + WEB', 'House Movies'] }] },
      { name: 'series-main', type: 'series_app', baseUrl: 'http://127.0.0.1:18989', apiKey: { env: 'SERIES_MAIN_KEY' }, sync: [{ database: 'mine' }] },
    ]);
  });
});

describe('profile edits', () => {
  const edit = (over: Partial<ProfileEdit>): ProfileEdit => ({ profile: 'P', arrType: 'movie_app', scores: {}, fields: {}, changed: null, ...over });
  const profile = { name: 'P', minimumCustomFormatScore: 0, customFormats: { all: [{ name: 'Shared', score: 5 }], movie_app: [{ name: 'Old', score: 40 }, { name: 'Kept', score: 7 }] } };

  it('scores a format where it is listed, adds a new one to the family, sets fields', () => {
    const data = editedProfile(profile, edit({ scores: { Shared: 9, New: -100 }, fields: { minimumCustomFormatScore: 10 } }));
    expect(data).toEqual({ name: 'P', minimumCustomFormatScore: 10, customFormats: { all: [{ name: 'Shared', score: 9 }], movie_app: [{ name: 'Old', score: 40 }, { name: 'Kept', score: 7 }, { name: 'New', score: -100 }] } });
    expect(profile.customFormats.all[0].score).toBe(5);
  });

  it('reset_unmatched_scores zeroes the others, except the names and patterns given', () => {
    const data = editedProfile(profile, edit({ scores: { Shared: 9 }, reset: { except: [], exceptPatterns: ['^Ke'] } }));
    expect(data.customFormats).toEqual({ all: [{ name: 'Shared', score: 9 }], movie_app: [{ name: 'Old', score: 0 }, { name: 'Kept', score: 7 }] });
  });

  it('a group gives its required and default formats, select adds, exclude removes, select_all takes all', () => {
    const group = { entity: { custom_formats: [{ trash_id: 'a', required: true }, { trash_id: 'b', required: false, default: 'true' }, { trash_id: 'c', required: false }] } } as never;
    const spec = { trashId: 'g', select: [], selectAll: false, exclude: [], targets: [], line: 1 };
    expect(groupMembers(group, spec)).toEqual(['a', 'b']);
    expect(groupMembers(group, { ...spec, select: ['c'], exclude: ['b'] })).toEqual(['a', 'c']);
    expect(groupMembers(group, { ...spec, selectAll: true })).toEqual(['a', 'b', 'c']);
  });
});
