/**
 * The release parser on the project's own fixture titles (written for arrgo, not taken from the apps): movies and
 * Sonarr-style series, covering source, resolution, modifier, release group, languages, editions, revisions,
 * season/episode conventions and the title and year.
 */
import { rng } from '../../helpers/seeded-random';
import { PARSER_VERSION, parseRelease, type ParsedRelease, type ReleaseKind } from '../../../src/domain/evaluation/release-parser';

type Expect = Partial<Omit<ParsedRelease, 'revision' | 'series'>> & {
  revision?: Partial<ParsedRelease['revision']>;
  series?: Partial<NonNullable<ParsedRelease['series']>> | null;
};

function parsed(title: string, kind: ReleaseKind): ParsedRelease {
  const result = parseRelease(title, kind);
  if (!result) throw new Error(`"${title}" did not parse`);
  return result;
}

describe('release parser: movies', () => {
  const cases: Array<[string, Expect]> = [
    // quality
    ['The.Matrix.1999.1080p.BluRay.x264-SPARKS', { title: 'The Matrix', year: 1999, source: 'bluray', resolution: 1080, modifier: 'none', releaseGroup: 'SPARKS' }],
    ['The Matrix (1999) 2160p UHD BluRay REMUX HDR HEVC DTS-HD MA 5.1-FGT', { title: 'The Matrix', year: 1999, source: 'bluray', resolution: 2160, modifier: 'remux', releaseGroup: 'FGT' }],
    ['Movie.Title.2019.BluRay.1080p.DTS-HD.MA.5.1.AVC.REMUX-FraMeSToR', { source: 'bluray', resolution: 1080, modifier: 'remux', releaseGroup: 'FraMeSToR' }],
    ['Movie.Title.2019.720p.BluRay.REMUX.AVC.FLAC.2.0-GRP', { source: 'bluray', resolution: 720, modifier: 'none' }],
    ['Movie.Title.2019.1080p.BluRay.AVC.DTS-HD.MA.5.1-GRP', { source: 'bluray', resolution: 1080, modifier: 'brdisk' }],
    ['Movie.Title.2019.COMPLETE.UHD.BLURAY-GRP', { source: 'bluray', resolution: 1080, modifier: 'brdisk', releaseGroup: 'GRP' }],
    ['Movie Title 2019 BD50 ISO', { source: 'bluray', modifier: 'brdisk' }],
    ['Movie.Title.2019.576p.BluRay.x264-GRP', { source: 'bluray', resolution: 576 }],
    ['[group] movie title - 01 [bd][720p-aac][0601bed4]', { source: 'bluray', resolution: 720, releaseGroup: 'group' }],
    ['movie.title.us.s12e17.hr.ws.pdtv.x264-grp', { source: 'tv', resolution: 720 }],
    ['This_Wonderful_Movie_1991_German_ML_1080p_BluRay_AVC-GRP', { source: 'bluray', resolution: 1080, modifier: 'remux' }],
    ['Movie.Title.2019.BDRip.x264-GRP', { source: 'bluray', resolution: 480 }],
    ['Movie.Title.2019.BRRip.720p.x264-GRP', { source: 'bluray', resolution: 720 }],
    ['Movie.Title.2019.1080p.NF.WEB-DL.DDP5.1.x264-NTG', { source: 'webdl', resolution: 1080, releaseGroup: 'NTG' }],
    ['Movie.Title.2019.2160p.AMZN.WEB-DL.DDP5.1.HDR.HEVC-CMRG', { source: 'webdl', resolution: 2160, releaseGroup: 'CMRG' }],
    ['Movie.Title.2019.720p.WEB.H264-GRP', { source: 'webdl', resolution: 720 }],
    ['Movie.Title.2019.1080p.WEB.DL.DD5.1.H264-GRP', { source: 'webdl', resolution: 1080 }],
    ['Movie.Title.2019.1080p.WEBRip.x265-RARBG', { source: 'webrip', resolution: 1080, releaseGroup: 'RARBG' }],
    ['Movie.Title.2019.540p.WEB-DL.AAC2.0.H.264-GRP', { source: 'webdl', resolution: 480 }],
    ['Movie.Title.2019.1080p.HDTV.x264-GRP', { source: 'tv', resolution: 1080 }],
    ['Movie.Title.2019.PDTV.XviD-GRP', { source: 'tv', resolution: 480 }],
    ['Movie.Title.2019.1080i.HDTV.DD5.1.MPEG2-GRP', { source: 'tv', resolution: 1080, modifier: 'rawhd' }],
    ['Movie.Title.2019.DVDRip.x264-GRP', { source: 'dvd', resolution: null, modifier: 'none' }],
    ['Movie.Title.2019.NTSC.DVDR-GRP', { source: 'dvd', resolution: 480, modifier: 'remux' }],
    ['Movie.Title.2019.PAL.DVD9-GRP', { source: 'dvd', resolution: 480, modifier: 'remux' }],
    ['Movie.Title.2019.DVD-9.PAL-GRP', { source: 'dvd', resolution: 480, modifier: 'remux', releaseGroup: 'GRP' }],
    // Radarr's own quality names, as its renamer writes them
    ['Movie Title (2019) [BR-DISK]', { source: 'bluray', resolution: 1080, modifier: 'brdisk', releaseGroup: null }],
    ['Movie Title (2019) [DVD-R]', { source: 'dvd', resolution: 480, modifier: 'remux', releaseGroup: null }],
    ['Movie Title (2019) [Remux-2160p]', { source: 'bluray', resolution: 2160, modifier: 'remux', releaseGroup: null }],
    ['Movie Title (2019) [Raw-HD]', { source: 'tv', resolution: 1080, modifier: 'rawhd' }],
    ['Movie Title (2019) [WEBRip-720p]', { source: 'webrip', resolution: 720 }],
    ['Movie Title (2019) [SDTV]', { source: 'tv', resolution: 480 }],
    ['Movie.Title.2019.DVDScr.XviD-GRP', { source: 'dvd', resolution: 480, modifier: 'screener' }],
    ['Movie.Title.2019.R5.LINE.XviD-GRP', { source: 'dvd', modifier: 'regional' }],
    ['Movie.Title.2019.HDTS.x264-GRP', { source: 'telesync', resolution: 720 }],
    ['Movie.Title.2019.720p.TeleSync.x264-GRP', { source: 'telesync', resolution: 720 }],
    ['Movie.Title.2019.HDTC.x264-GRP', { source: 'telecine' }],
    ['Movie.Title.2019.HDCAM.x264-GRP', { source: 'cam' }],
    ['Movie.Title.2019.WORKPRINT.XviD-GRP', { source: 'workprint' }],
    ['Movie.Title.2019.720p.x264-WP', { source: 'tv', resolution: 720 }],
    ['The.Cam.2019.1080p.WEB-DL.DD5.1.H.264-GRP', { title: 'The Cam', source: 'webdl' }],
    ['Movie Title 2019 1080p', { title: 'Movie Title', year: 2019, source: 'tv', resolution: 1080, releaseGroup: null }],
    ['Movie Title', { title: 'Movie Title', year: null, source: 'unknown', resolution: null, releaseGroup: null }],
    // titles and years
    ['1917.2019.1080p.BluRay.x264-GRP', { title: '1917', year: 2019 }],
    ['2001.A.Space.Odyssey.1968.2160p.UHD.BluRay.x265-TERMiNAL', { title: '2001 A Space Odyssey', year: 1968, resolution: 2160, releaseGroup: 'TERMiNAL' }],
    ['Spider-Man.No.Way.Home.2021.1080p.WEB-DL.DDP5.1.H.264-EVO', { title: 'Spider-Man No Way Home', year: 2021, releaseGroup: 'EVO' }],
    ['Movie.Title.1080p.BluRay.x264-GRP', { title: 'Movie Title', year: null, source: 'bluray' }],
    ['MOVIE.TITLE.2019.1080P.BLURAY.X264-GRP', { title: 'MOVIE TITLE', resolution: 1080, source: 'bluray' }],
    // release groups
    ['Movie.Title.2019.1080p.BluRay.DDP5.1.x264-D-Z0N3', { releaseGroup: 'D-Z0N3' }],
    ['Movie.Title.2019.1080p.WEB-DL.H264-GRP[rarbg]', { releaseGroup: 'GRP' }],
    ['Movie.Title.2019.720p.HDTV.x264-GRP-[eztv]', { releaseGroup: 'GRP' }],
    ['Movie.Title.2019.1080p.BluRay.x264-GRP-AsRequested', { releaseGroup: 'GRP' }],
    ['Movie.Title.2019.1080p.BluRay.x264-GRP-Obfuscated.mkv', { releaseGroup: 'GRP' }],
    ['Movie.Title.2019.1080p.BluRay.x264-SPARKS-sample', { releaseGroup: 'SPARKS' }],
    ['Movie Title (2019) [1080p] [BluRay] [5.1] [YTS.MX]', { releaseGroup: 'YTS.MX', source: 'bluray', resolution: 1080 }],
    ['Movie Title (2019) (1080p BluRay x265 HEVC 10bit AAC 5.1 Tigole)', { releaseGroup: 'Tigole' }],
    ['Movie Title (2019) (1080p BluRay x265 HEVC 10bit AAC 5.1)', { releaseGroup: null }],
    ['Movie Title 2019 1080p BluRay x264 Dual Audio [Hindi DD5.1 + English DD5.1] ESub - GRP', { releaseGroup: 'GRP' }],
    ['Movie.Title.2019.1080p.WEB-DL.DD5.1.H.264.mkv', { releaseGroup: null }],
    ['Movie Title 2019 1080p BluRay x264 GRP', { releaseGroup: null }],
    // languages (the app's Language names; 'Original' for German DL/ML, 'Unknown' when none is named; MULTi and VOSTFR name none)
    ['Movie.Title.2019.1080p.BluRay.x264-GRP', { languages: ['Unknown'] }],
    ['Le.Film.2019.FRENCH.1080p.WEB.H264-GRP', { title: 'Le Film', languages: ['French'] }],
    ['Movie.Title.2019.TRUEFRENCH.1080p.BluRay.x264-GRP', { languages: ['French'] }],
    ['Movie.Title.2019.VOSTFR.720p.WEBRip.x264-GRP', { languages: ['Unknown'], source: 'webrip', resolution: 720 }],
    ['Movie.Title.2019.MULTi.VFF.1080p.BluRay.x264-GRP', { languages: ['French'] }],
    ['Movie.Title.2019.MULTi.1080p.BluRay.x264-GRP', { languages: ['Unknown'] }],
    ['Der.Film.2019.German.DL.1080p.BluRay.x264-GRP', { languages: ['German', 'Original'] }],
    ['Der.Film.2019.GERMAN.1080p.WEB.x264-GRP', { languages: ['German'] }],
    ['Il.Film.2019.iTALiAN.720p.WEB-DL.x264-GRP', { languages: ['Italian'] }],
    ['Movie.Title.2019.ITA.ENG.1080p.BluRay.x264-GRP', { languages: ['Italian', 'English'] }],
    ['Movie.Title.2019.iTA.Eng.1080p.BluRay.x264-GRP', { languages: ['Italian', 'English'] }],
    ['Movie.Title.2019.SPA.1080p.BluRay.x264-GRP', { languages: ['Unknown'] }],
    ['Movie.Title.2019.ES.1080p.BluRay.x264-GRP', { languages: ['Spanish'] }],
    ['Movie.Title.2019.Spa.Day.1080p.BluRay.x264-GRP', { languages: ['Unknown'] }],
    ['La.Pelicula.2019.SPANISH.1080p.WEB-DL.x264-GRP', { languages: ['Spanish'] }],
    ['La.Pelicula.2019.Latino.1080p.WEB-DL.x264-GRP', { languages: ['Spanish (Latino)'] }],
    ['Movie.Title.2019.PT-BR.1080p.WEB-DL-GRP', { languages: ['Portuguese (Brazil)'] }],
    ['Movie.Title.2019.RUS.UKR.1080p.WEB-DL-GRP', { languages: ['Russian', 'Ukrainian'] }],
    ['Movie.Title.2019.KOREAN.1080p.WEBRip.x264-GRP', { languages: ['Korean'] }],
    ['The.German.2019.1080p.BluRay.x264-GRP', { title: 'The German', languages: ['Unknown'] }],
    ['Der.Film.2019.German.Subbed.1080p.WEB.x264-GRP', { languages: ['German'] }],
    ['Movie.Title.2019.1080p.BluRay.x264-GRP.part01.rar', { releaseGroup: 'GRP' }],
    ['Movie.Title.2019.1080p.BluRay.x264-GRP.srt', { releaseGroup: 'GRP' }],
    ['Movie.Title.2019.1080p.BluRay.x264-GRP (Kingdom Release)', { releaseGroup: 'GRP' }],
    // editions
    ['Movie.Title.2010.Directors.Cut.1080p.BluRay.x264-GRP', { title: 'Movie Title', edition: 'Directors Cut' }],
    ["Movie Title 2010 Director's Cut 1080p BluRay x264-GRP", { edition: "Director's Cut" }],
    ['Movie.Title.2019.Extended.Cut.2160p.UHD.BluRay.REMUX.HDR.HEVC.Atmos-GRP', { edition: 'Extended Cut', modifier: 'remux' }],
    ['Movie.Title.Extended.2019.1080p.BluRay.x264-GRP', { title: 'Movie Title', year: 2019, edition: 'Extended' }],
    ['Movie.Title.2019.IMAX.2160p.WEB-DL.DDP5.1.Atmos.DV.HDR.H.265-GRP', { edition: 'IMAX' }],
    ['Movie.Title.2019.IMAX.Enhanced.2160p.WEB-DL-GRP', { edition: 'IMAX Enhanced' }],
    ['Movie.Title.2019.Theatrical.Cut.1080p.BluRay.x264-GRP', { edition: 'Theatrical Cut' }],
    ['Movie Title 2019 Open Matte 1080p WEB-DL DD5.1 H.264-GRP', { edition: 'Open Matte' }],
    ['Movie.Title.2019.Criterion.Collection.1080p.BluRay.x264-GRP', { edition: 'Criterion Collection' }],
    ['Movie.Title.2019.25th.Anniversary.Edition.1080p.BluRay.x264-GRP', { edition: '25th Anniversary Edition' }],
    ['Movie.Title.2019.UNRATED.1080p.BluRay.x264-GRP', { edition: 'UNRATED' }],
    ['Movie.Title.2019.REMASTERED.1080p.BluRay.x264-GRP', { edition: 'REMASTERED' }],
    // Radarr reads an edition before the year as the edition, Final Cut included (EditionParserFixture)
    ['Harbour.Lights.Final.Cut.2004.1080p.BluRay.x264-GRP', { title: 'Harbour Lights', year: 2004, edition: 'Final Cut' }],
    ['Movie Title (Despecialized) 1999 720p BluRay x264-GRP', { title: 'Movie Title', year: 1999, edition: 'Despecialized' }],
    ['Movie Title 1999 (Despecialized).mkv', { edition: 'Despecialized', releaseGroup: null }],
    ['Movie Title.2012.(Special.Edition.Remastered).[Bluray-1080p].mkv', { edition: 'Special Edition Remastered', source: 'bluray', resolution: 1080 }],
    ['Movie Title.2012.(Extended.Theatrical.Version.IMAX).BluRay.1080p-GRP', { edition: 'Extended Theatrical Version IMAX' }],
    ['Movie Title 2012 Extended Directors Cut Fan Edit 1080p BluRay x264-GRP', { edition: 'Extended Directors Cut Fan Edit' }],
    ['Movie.Title.Special.Edition.2012.BRRip.x264.AAC-GRP', { title: 'Movie Title', year: 2012, edition: 'Special Edition', source: 'bluray', resolution: 480 }],
    ['Movie Title 2012 2in1 1080p BluRay x264-GRP', { edition: '2in1' }],
    ['Movie.Title.2019.1080p.BluRay.x264-GRP', { edition: null, releaseType: null, series: null }],
    ["Movie Title (2020) {edition-Director's Cut} [Bluray-1080p]", { title: 'Movie Title', edition: "Director's Cut", source: 'bluray', resolution: 1080 }],
    // revisions
    ['Movie.Title.2019.PROPER.1080p.BluRay.x264-GRP', { revision: { version: 2, isProper: true, isRepack: false, real: 0 } }],
    ['Movie.Title.2019.REPACK.1080p.BluRay.x264-GRP', { revision: { version: 2, isProper: false, isRepack: true } }],
    ['Movie.Title.2019.REPACK2.1080p.BluRay.x264-GRP', { revision: { version: 3, isRepack: true } }],
    ['Movie.Title.2019.RERIP.1080p.BluRay.x264-GRP', { revision: { version: 2, isRepack: true } }],
    ['Movie.Title.2019.REAL.PROPER.1080p.WEB-DL.DD5.1.H.264-GRP', { revision: { version: 2, real: 1, isProper: true } }],
    ['The.Real.Deal.2019.1080p.WEB-DL.DD5.1-GRP', { title: 'The Real Deal', revision: { version: 1, real: 0 } }],
    ['Movie.Name.S01E01.REAL.PROPER.720p.HDTV.x264-GRP', { revision: { version: 2, real: 1, isProper: true } }],
    ['Movie.Name.2011.REAL.REAL.PROPER.1080p.BluRay.x264-GRP', { revision: { version: 2, real: 2 } }],
    ['REAL.STEEL.2011.1080P.BLURAY.X264-GRP', { title: 'REAL STEEL', revision: { version: 1, real: 0 } }],
    ['[Group] Movie Title v2 [1080p]', { revision: { version: 1 } }],
  ];

  it.each(cases)('%s', (title, expected) => {
    expect(parsed(title, 'movie')).toMatchObject(expected);
  });
});

describe('release parser: series (Sonarr conventions)', () => {
  const cases: Array<[string, Expect]> = [
    ['Series.Title.S01E01.720p.HDTV.x264-KILLERS', { title: 'Series Title', source: 'tv', resolution: 720, releaseGroup: 'KILLERS', releaseType: 'singleEpisode', series: { seasonNumber: 1, episodeNumbers: [1], fullSeason: false } }],
    ['Series.Title.S01E01.Episode.Name.1080p.AMZN.WEB-DL.DDP5.1.H.264-NTb', { title: 'Series Title', source: 'webdl', resolution: 1080, releaseGroup: 'NTb', releaseType: 'singleEpisode' }],
    ['Series.Title.S01E01E02.1080p.WEB-DL.DD5.1.H.264-NTb', { releaseType: 'multiEpisode', series: { seasonNumber: 1, episodeNumbers: [1, 2] } }],
    ['Series.Title.S01E01-E03.1080p.WEB-DL.DD5.1.H.264-NTb', { releaseType: 'multiEpisode', series: { episodeNumbers: [1, 2, 3] } }],
    ['Series Title S02E05-06 1080p AMZN WEB-DL DDP5.1 H.264-NTb', { releaseType: 'multiEpisode', series: { seasonNumber: 2, episodeNumbers: [5, 6] } }],
    ['Series.Title.S01E01.S01E02.720p.HDTV.x264-GRP', { releaseType: 'multiEpisode', series: { episodeNumbers: [1, 2] } }],
    ['Series.Title.S01E01-S01E03.720p.HDTV.x264-GRP', { releaseType: 'multiEpisode', series: { episodeNumbers: [1, 2, 3] } }],
    ['Series.Title.S01E05-720p.HDTV.x264-GRP', { releaseType: 'singleEpisode', resolution: 720, series: { episodeNumbers: [5] } }],
    ['Series.Title.1x04.HDTV.XviD-LOL', { releaseType: 'singleEpisode', source: 'tv', resolution: 480, series: { seasonNumber: 1, episodeNumbers: [4] } }],
    ['Series.Title.S01.1080p.BluRay.x264-ROVERS', { title: 'Series Title', releaseType: 'seasonPack', source: 'bluray', resolution: 1080, releaseGroup: 'ROVERS', series: { seasonNumber: 1, episodeNumbers: [], fullSeason: true } }],
    ['Series.Title.Season.1.1080p.WEB-DL.DD5.1.H.264-GRP', { title: 'Series Title', releaseType: 'seasonPack', series: { seasonNumber: 1, fullSeason: true } }],
    ['Series Title Season 2 Complete 720p HDTV x264-GRP', { releaseType: 'seasonPack', series: { seasonNumber: 2 } }],
    ['Series.Title.S01-S03.1080p.BluRay.x264-GRP', { releaseType: 'seasonPack', series: { seasonNumber: 1, seasonNumbers: [1, 2, 3], fullSeason: true } }],
    ['Series.Title.2019.S01E01.1080p.WEB.H264-GRP', { title: 'Series Title', year: 2019, series: { seasonNumber: 1, episodeNumbers: [1] } }],
    ['Series Title (2019) S02E10 1080p WEB h264-GRP', { title: 'Series Title', year: 2019, source: 'webdl' }],
    ['Series.Title.US.S01E01.720p.HDTV.x264-GRP', { title: 'Series Title US' }],
    // Sonarr's release type counts parsed episode numbers; a daily air date alone has none, so it is Unknown
    ['The.Daily.Show.2016.03.14.720p.WEB.x264-spamTV', { title: 'The Daily Show', releaseType: 'unknown', releaseGroup: 'spamTV', series: { airDate: '2016-03-14', seasonNumber: null } }],
    ['The Daily Show 2016-03-14 Guest Name 1080p WEB h264-GRP', { title: 'The Daily Show', series: { airDate: '2016-03-14' } }],
    ['[SubsPlease] Anime Title - 01 (1080p) [ABCDEF12].mkv', { title: 'Anime Title', releaseGroup: 'SubsPlease', resolution: 1080, releaseType: 'singleEpisode', series: { absoluteEpisodeNumbers: [1], episodeNumbers: [] } }],
    ['[Erai-raws] Anime Title - 1089 [1080p][Multiple Subtitle].mkv', { releaseGroup: 'Erai-raws', series: { absoluteEpisodeNumbers: [1089] } }],
    ['[HorribleSubs] Anime Title - 12v2 [720p].mkv', { releaseGroup: 'HorribleSubs', revision: { version: 2 }, series: { absoluteEpisodeNumbers: [12] } }],
    ['[Anime Time] Anime Title - 01 [1080p]', { releaseGroup: 'Anime Time', series: { absoluteEpisodeNumbers: [1] } }],
    ['[TGx] Series.Title.S01E01.1080p.WEB-DL-EVO', { title: 'Series Title', releaseGroup: 'EVO' }],
    ['[Dolby Vision] Series.Title.S07.MULTi.UHD.BLURAY.REMUX.DV-NoTag', { title: 'Series Title', releaseGroup: 'NoTag', source: 'bluray', resolution: 2160, modifier: 'remux', releaseType: 'seasonPack' }],
    ['[Group] Anime Title - 01-03 [BD 1080p]', { source: 'bluray', releaseType: 'multiEpisode', series: { absoluteEpisodeNumbers: [1, 2, 3] } }],
    ['Series - S01E01 - Pilot [HDTV-720p]', { title: 'Series', source: 'tv', resolution: 720, releaseGroup: null }],
    ['Series.Title.S01E01.FRENCH.720p.HDTV.x264-GRP', { languages: ['French'] }],
    ['Series.Title.S01E01.VOSTFR.1080p.WEB.x264-GRP', { languages: ['Unknown'] }],
    ['Series.Title.S01E01.MULTi.1080p.WEB.H264-GRP', { languages: ['Unknown'] }],
    ['Series.Title.S01E01.German.Subbed.1080p.WEB.H264-GRP', { languages: ['Unknown'] }],
    ['Series.Title.S01E01.SPA.1080p.WEB.H264-GRP', { languages: ['Spanish'] }],
    ['Series.Title.S01E01.German.DL.1080p.WEB.x264-GRP', { languages: ['German', 'Original'] }],
    ['Series.Title.S01E01.1080p.WEB.H264-GRP', { languages: ['Unknown'], edition: null }],
    ['Series.Title.S05E11.PROPER.720p.HDTV.x264-GRP', { revision: { version: 2, isProper: true } }],
    ['Series.Title.S05E11.REAL.REPACK.720p.HDTV.x264-GRP', { revision: { version: 2, isRepack: true, real: 1 } }],
    ['Series.S02E04.720p.WEB-DL.AAC2.0.H.264-EVL-RUS', { releaseGroup: 'EVL', languages: ['Russian'] }],
    ['Series.Title.S01E01.DVDRip.XviD-GRP', { source: 'dvd', resolution: 480 }],
    ['Series.Title.S03E01-06.DUAL.XviD.Bluray.AC3-REPACK.-HELLYWOOD.avi', { source: 'bluray', resolution: 480, releaseGroup: 'HELLYWOOD', revision: { version: 2, isRepack: true }, series: { episodeNumbers: [1, 2, 3, 4, 5, 6] } }],
    ['Series Title - S01E01 - Pilot [SD TV].avi', { source: 'tv', resolution: 480 }],
    ['Series.Title.S01E01.Netflix.1080p.DD5.1.x264-GRP', { source: 'webdl', resolution: 1080 }],
    ['Series.Title.S01E01.720p.WEB.h264-TBS[eztv.re]', { releaseGroup: 'TBS' }],
    ['[Judas] Anime Title - S02E05 [1080p][HEVC x265 10bit][Multi-Subs]', { releaseGroup: 'Judas', languages: ['Unknown'], series: { seasonNumber: 2, episodeNumbers: [5] } }],
    ['[Judas] Anime Title (Season 2) [1080p][HEVC x265 10bit][Multi-Subs] (Batch)', { title: 'Anime Title', releaseType: 'seasonPack', series: { seasonNumber: 2 } }],
    ['Series Title - S01E01 - Pilot [Bluray-1080p Remux]', { source: 'bluray', resolution: 1080, modifier: 'remux', releaseGroup: null }],
    ['Series Title (2020) - S01E01 - Pilot [AMZN WEBDL-1080p][EAC3 5.1][h264]-NTb', { title: 'Series Title', year: 2020, source: 'webdl', resolution: 1080, releaseGroup: 'NTb' }],
    ['[SubDESU]_Anime_Title_-_01_(1280x720_x264-AAC)_[6B7FD717]', { title: 'Anime Title', releaseGroup: 'SubDESU', resolution: 720, series: { absoluteEpisodeNumbers: [1] } }],
    ['[ANBU-AonE]_Anime_Title_26-27_[F224EF26].avi', { title: 'Anime Title', releaseType: 'multiEpisode', series: { absoluteEpisodeNumbers: [26, 27] } }],
    ['[SubsPlease] Anime Title S2 - 05 (1080p) [ABCDEF12].mkv', { releaseType: 'singleEpisode', series: { absoluteEpisodeNumbers: [5] } }],
    ['Anime Title - 012 [HorribleSubs][720p]', { title: 'Anime Title', releaseGroup: 'HorribleSubs', series: { absoluteEpisodeNumbers: [12] } }],
    ['Mini.Series.Title.E05.1080p.WEB.H264-GRP', { title: 'Mini Series Title', releaseType: 'singleEpisode', series: { seasonNumber: 1, episodeNumbers: [5] } }],
    ['Mini.Series.Title.Part.2.720p.HDTV.x264-GRP', { title: 'Mini Series Title', series: { seasonNumber: 1, episodeNumbers: [2] } }],
    ['Series Title - 2019 - Part 2 1080p', { series: { absoluteEpisodeNumbers: [], episodeNumbers: [2] } }],
    ['Series Title', { releaseType: 'unknown', series: { seasonNumber: null, episodeNumbers: [], absoluteEpisodeNumbers: [], fullSeason: false } }],
  ];

  it.each(cases)('%s', (title, expected) => {
    expect(parsed(title, 'series')).toMatchObject(expected);
  });
});

describe('release parser: contract', () => {
  it('returns null only when the title has nothing to parse', () => {
    expect(parseRelease('', 'movie')).toBeNull();
    expect(parseRelease('   ', 'series')).toBeNull();
    expect(parseRelease('--- ...', 'movie')).toBeNull();
    expect(parseRelease('x', 'movie')).toMatchObject({ title: 'x', source: 'unknown', resolution: null });
  });

  it('reads a path by its release segment and the quality from the whole name', () => {
    expect(parseRelease('/downloads/Movie.Title.2019.1080p.BluRay.x264-GRP/abcdef.mkv', 'movie')).toMatchObject({
      title: 'Movie Title', year: 2019, source: 'bluray', resolution: 1080, releaseGroup: 'GRP',
    });
    expect(parseRelease('C:\\Downloads\\Series.Title.S01E02.720p.HDTV.x264-GRP.mkv', 'series')).toMatchObject({
      title: 'Series Title', releaseGroup: 'GRP', series: { seasonNumber: 1, episodeNumbers: [2] },
    });
  });

  it('is deterministic and keeps no state between calls (regexes are module-level)', () => {
    const title = 'Movie.Title.2019.MULTi.1080p.BluRay.x264-GRP';
    const first = parseRelease(title, 'movie');
    for (let i = 0; i < 3; i++) parseRelease(`Other.${i}.2020.720p.WEB.H264-X`, 'movie');
    expect(parseRelease(title, 'movie')).toEqual(first);
  });

  it('has a version string for cache keys', () => {
    expect(PARSER_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('copes with very long and hostile titles', () => {
    const long = `${'A.'.repeat(500)}2019.1080p.WEB-DL.H264-GRP`;
    expect(parseRelease(long, 'movie')).toMatchObject({ year: 2019, source: 'webdl', resolution: 1080, releaseGroup: 'GRP' });
    const hostile = `${'[('.repeat(300)}${'-'.repeat(300)}`;
    expect(() => parseRelease(hostile, 'series')).not.toThrow();
  });

  it('a film titled by a number, read as a series, parses without throwing (a year after it is not an episode)', () => {
    for (const title of ['1812.1962.EXTENDED.720p.BluRay.x264-GRP', '2046.2004.1080p.WEB.H264-GRP', '1001.1999.DVDRip.XviD-GRP']) {
      expect(() => parseRelease(title, 'series')).not.toThrow();
      expect(parseRelease(title, 'series')).not.toBeNull();
    }
  });

  it('never throws on seeded random titles of release words, numbers and separators, for either kind', () => {
    const words = ['.', '-', ' ', '[', ']', '(', ')', '/', '_', 'S01', 'E02', '1x03', '2001', '1812', '103', '0', '1080p', 'x264', 'GER', 'DL', 'MULTi', 'Sub', 'VOSTFR', 'Part', 'Season', "Director's", 'Cut', 'WEB', 'ITA', 'Eng', '+', 'ñ', '字', 'v2', 'Ep', '2020.01.02', '[ABCD1234]', '- 01', 'Film'];
    const random = rng(20261127);
    for (let i = 0; i < 2000; i++) {
      let title = '';
      const length = 1 + Math.floor(random() * 40);
      for (let j = 0; j < length; j++) title += words[Math.floor(random() * words.length)];
      for (const kind of ['movie', 'series'] as const) expect(() => parseRelease(title, kind)).not.toThrow();
    }
  });
});
