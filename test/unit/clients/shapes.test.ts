import { project, SHAPES } from '../../../src/clients/shapes';

describe('request projection', () => {
  test('drops undeclared properties at every level and null nested objects', () => {
    const profile = {
      id: 3,
      name: 'P',
      upgradeAllowed: false,
      cutoff: 1000,
      minFormatScore: 0,
      cutoffFormatScore: 0,
      minUpgradeFormatScore: 1,
      language: null,
      extra: 'x',
      items: [
        { id: 1000, name: 'G', quality: null, allowed: true, items: [{ quality: { id: 3, name: 'WEBDL-1080p', source: 'webdl', resolution: 1080, modifier: 'none', junk: 1 }, items: [], allowed: true }] },
      ],
      formatItems: [{ format: 1, name: 'HDR', score: 10, weight: 2 }],
    };
    expect(project(SHAPES.movie_app.qualityProfile, profile)).toEqual({
      id: 3,
      name: 'P',
      upgradeAllowed: false,
      cutoff: 1000,
      minFormatScore: 0,
      cutoffFormatScore: 0,
      minUpgradeFormatScore: 1,
      items: [{ id: 1000, name: 'G', allowed: true, items: [{ quality: { id: 3, name: 'WEBDL-1080p', source: 'webdl', resolution: 1080, modifier: 'none' }, items: [], allowed: true }] }],
      formatItems: [{ format: 1, name: 'HDR', score: 10 }],
    });
  });

  test('per-app differences: Sonarr and Lidarr have no language, Lidarr no minUpgradeFormatScore, no dividerAfter outside Radarr', () => {
    const profile = { name: 'P', language: { id: 1, name: 'English' }, minUpgradeFormatScore: 1 };
    expect(project(SHAPES.series_app.qualityProfile, profile)).toEqual({ name: 'P', minUpgradeFormatScore: 1 });
    expect(project(SHAPES.music_app.qualityProfile, profile)).toEqual({ name: 'P' });
    const format = {
      name: 'F',
      specifications: [{ name: 'S', implementation: 'LanguageSpecification', fields: [{ name: 'value', value: 1, selectOptions: [{ value: 1, name: 'English', order: 0, dividerAfter: false }] }] }],
    };
    expect(project(SHAPES.series_app.customFormat, format).specifications[0].fields[0].selectOptions).toEqual([{ value: 1, name: 'English', order: 0 }]);
    expect(project(SHAPES.movie_app.customFormat, format).specifications[0].fields[0].selectOptions).toEqual([{ value: 1, name: 'English', order: 0, dividerAfter: false }]);
  });

  test('non-objects pass through untouched', () => {
    expect(project(SHAPES.movie_app.tag, null)).toBeNull();
    expect(project(SHAPES.movie_app.tag, 'x')).toBe('x');
  });
});
