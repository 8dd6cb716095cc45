/**
 * Revisions as the apps read them (the conformance suite has no revision field): PROPER/REPACK/RERIP versions,
 * and Sonarr's anime versions, which need an episode number, a bracket or a resolution before the "v".
 */
import { parseRelease, type ParsedRelease } from '../../../src/domain/evaluation/release-parser';

type Revision = Partial<ParsedRelease['revision']>;

describe('release parser: revisions for series (Sonarr QualityParserFixture, AnimeVersionFixture)', () => {
  it.each<[string, Revision]>([
    ['Harbor Lights S04E87 REPACK 720p HDTV x264 KSTR', { version: 2, isRepack: true, isProper: false }],
    ['Harbor.Lights.S04E87.REPACK2.720p.HDTV.x264-KSTR', { version: 3, isRepack: true }],
    ['Harbor.Lights.S04E87.PROPER.720p.HDTV.x264-KSTR', { version: 2, isRepack: false, isProper: true }],
    ['Harbor.Lights.S01E07.RERIP.720p.BluRay.x264-NoVa', { version: 2, isRepack: true }],
    ['Harbor.Lights.S01E07.RERIP2.720p.BluRay.x264-NoVa', { version: 3, isRepack: true }],
    ['Harbor.Lights.2011.S02E01.WS.PDTV.x264-REPACK-KSTR', { version: 2, isRepack: true }],
    ['Harbor.Lights.S07E01.ARE.YOU.1080P.HDTV.proper.X264-QX', { version: 2, isProper: true }],
    // anime versions
    ['Kitsune Express - S01E01v2 - (BD 1080p HEVC FLAC) [Dual Audio] [Hoshi]', { version: 2 }],
    ['Kitsune Express - S01E01 v2 - (BD 1080p HEVC FLAC) [Dual Audio] [Hoshi]', { version: 2 }],
    ['[Hoshi] Kitsune Express - 01v3 (1080p) [ABCDEF12]', { version: 3 }],
    ['[Hoshi] Kitsune Express - 01 v2 (1080p) [ABCDEF12]', { version: 2 }],
    ['Kitsune Express (2014) - 39 (137) [v2][720p.HDTV][Hoshi]', { version: 2 }],
    ['[Lumen] Kitsune Express - S02E02 - 027 - The Fox [WEBDL-1080p v2][x264][AAC]', { version: 2 }],
    ['[Hoshi] Kitsune Express - 01 (1080p) [ABCDEF12]', { version: 1 }],
    // a "v3" after a title word is part of the title
    ['[Moonlit] Foxglove Lane v3 [BD720p][01234567]', { version: 1 }],
    ['[Moonlit] Foxglove Lane v2 [BD1080p][89ABCDEF].mkv', { version: 1 }],
  ])('%s', (title, revision) => {
    expect(parseRelease(title, 'series')?.revision).toMatchObject(revision);
  });
});

describe('release parser: revisions for movies (Radarr reads no anime version)', () => {
  it.each<[string, Revision]>([
    ['[Hoshi] Quiet Valley - 01v2 (1080p) [ABCDEF12]', { version: 1 }],
    ['Quiet.Valley.2019.REPACK.1080p.BluRay.x264-KSTR', { version: 2, isRepack: true }],
  ])('%s', (title, revision) => {
    expect(parseRelease(title, 'movie')?.revision).toMatchObject(revision);
  });
});
