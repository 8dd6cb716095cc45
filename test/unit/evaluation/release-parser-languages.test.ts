/**
 * Languages a release title names are the languages of the app of its kind: a movie's are Radarr's, a series' are
 * Sonarr's (or those of Sonarr's next line, which its current parser reads). The rules themselves are pinned case by
 * case in test/fixtures/parser-conformance/languages.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { APP_LANGUAGES } from '../../../src/domain/app-resources/languages';
import { parseRelease } from '../../../src/domain/evaluation/release-parser';

const cases = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'fixtures', 'parser-conformance', 'languages.json'), 'utf8')) as { app: string; title: string }[];
const SONARR_NEXT = ['Azerbaijani', 'Uzbek', 'Malay', 'Urdu', 'Romansh', 'Georgian'];

describe('release-parser languages', () => {
  it('names only languages the app of the kind knows', () => {
    const radarr = new Set(APP_LANGUAGES.movie_app.map((l) => l.name));
    const sonarr = new Set([...APP_LANGUAGES.series_app.map((l) => l.name), ...SONARR_NEXT]);
    const strays: string[] = [];
    for (const c of cases) {
      for (const kind of ['movie', 'series'] as const) {
        const known = kind === 'movie' ? radarr : sonarr;
        for (const language of parseRelease(c.title, kind)?.languages ?? []) if (!known.has(language)) strays.push(`${kind}: ${language} (${c.title})`);
      }
    }
    expect(strays).toEqual([]);
  });

  it('reads a title for each app by its own rules', () => {
    // Radarr reads VO as French and EN in capitals as English; Sonarr has neither, and drops a subtitle list
    expect(parseRelease('Paper.Comets.2018.VO.EN.1080p.WEB.x264-NOVA', 'movie')?.languages).toEqual(['French', 'English']);
    expect(parseRelease('Paper.Comets.S01E01.VO.EN.1080p.WEB.x264-NOVA', 'series')?.languages).toEqual(['Unknown']);
    expect(parseRelease('Paper.Comets.2018.Ger.Eng.Sub.1080p.WEB.x264-NOVA', 'movie')?.languages).toEqual(['German', 'English']);
    expect(parseRelease('Paper.Comets.S01E01.Ger.Eng.Sub.1080p.WEB.x264-NOVA', 'series')?.languages).toEqual(['Unknown']);
  });
});
