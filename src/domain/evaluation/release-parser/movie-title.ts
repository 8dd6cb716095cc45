/** Movie title, year and edition (Radarr's conventions). */
import { allMatches } from './vocabulary';
import { cleanTitle, DOTS_AND_UNDERSCORES, firstIndex, HAS_TEXT, ONLY_SEPARATORS, SPACES, stripPrefixes, type TitleParts } from './title-common';

const YEAR = /(?<![0-9])[([]?((?:18[89]|19\d|20\d)\d)[)\]]?(?![0-9a-z])/gi;
/** The first technical word after a title: a resolution, source, codec or audio format. */
const STRONG_STOP = new RegExp(
  '(?<=[\\s._\\-([])(?:\\d{3,4}[pi]|\\d{3,4}x\\d{3,4}|4K|UHD|M?Blu-?Ray|BD(?:Rip|Remux|ISO|25|50)?|BRRip|WEB(?:-?DL|-?Rip|Mux)?|HDTV|PDTV|SDTV|DSR|' +
    'TVRip|DVD(?:Rip|R|SCR|5|9)?|HD-?DVD|REMUX|[xh]\\.?26[45]|HEVC|AVC|XviD|DivX|HDCAM|CAMRip|TSRip|TELESYNCH?|TELECINE|WORKPRINT|' +
    'DTS|AAC|AC3|DD[P+]?5\\.1|TrueHD|Atmos|10bit|HDR)(?![a-z0-9])',
  'i',
);
/** Release flags and language tags: they end a title that has no year. */
const WEAK_STOP = /(?<=[\s._\-([])(?:PROPER|REPACK|RERIP|iNTERNAL|MULTi|TRUEFRENCH|FRENCH|VOSTFR|GERMAN|iTALiAN|SPANISH|DUBBED|SUBBED|COMPLETE|LIMITED)(?![a-z0-9])/i;
/** Editions may stand between the title and the year ("Movie.Extended.2019"), but "The Final Cut" there is a title. */
const NOT_EDITION_BEFORE_YEAR = /^(?:Final|Limited|Alternate|Assembly)/i;
const EDITION = new RegExp(
  '(?<![a-z0-9])(' +
    '(?:(?:Extended|Ultimate|Recut)[-_. ])?' +
    '(?:Director\'?s|Directors|Collector\'?s|Collectors|Theatrical|Ultimate|Extended|Despecialized|Criterion|' +
    '(?:Special|Rogue|Final|Assembly|Imperial|Diamond(?:[-_. ]Luxe)?|Signature|Definitive|Limited|Deluxe|Alternate|Producer\'?s|Hunter|Rekall|Recut)(?=[-_. ](?:Cut|Edition|Version|Collection))|' +
    '\\d{1,3}(?:th|st|nd|rd)?[-_. ]Anniversary)' +
    '(?:[-_. ](?:Cut|Edition|Version|Collection))?' +
    '(?:[-_. ](?:Extended|Uncensored|Remastered|Unrated|Uncut|Open[-_. ]?Matte|IMAX|Fan[-_. ]?Edit))?' +
    '|(?:4K[-_. ])?Remaster(?:ed)?|Uncensored|Unrated|Uncut|Open[-_. ]?Matte|IMAX(?:[-_. ]Enhanced|[-_. ]Edition)?|Fan[-_. ]?Edit|Restored|[234]in1' +
    ')(?![a-z0-9])',
  'i',
);

function normaliseEdition(text: string): string {
  return text.replace(DOTS_AND_UNDERSCORES, ' ').replace(SPACES, ' ').trim();
}

/** Movie title, year and edition (Radarr's "Title (Year) …" convention). */
export function parseMovieTitle(name: string): TitleParts {
  const { text, offset } = stripPrefixes(name);
  const stop = firstIndex(STRONG_STOP, text);
  let yearMatch: RegExpMatchArray | null = null;
  for (const m of allMatches(YEAR, text)) {
    const index = m.index ?? 0;
    if (index > stop) break;
    if (HAS_TEXT.test(text.slice(0, index))) yearMatch = m;
  }
  const weakStop = Math.min(stop, firstIndex(WEAK_STOP, text));
  let titleEnd = yearMatch ? yearMatch.index ?? 0 : weakStop;
  let tailStart = yearMatch ? (yearMatch.index ?? 0) + yearMatch[0].length : weakStop;
  let edition: string | null = null;
  const beforeYear = text.slice(0, titleEnd);
  const titleEdition = yearMatch ? EDITION.exec(beforeYear) : null;
  if (
    titleEdition && !NOT_EDITION_BEFORE_YEAR.test(titleEdition[1]) && HAS_TEXT.test(beforeYear.slice(0, titleEdition.index))
    && ONLY_SEPARATORS.test(beforeYear.slice(titleEdition.index + titleEdition[0].length))
  ) {
    edition = normaliseEdition(titleEdition[1]);
    titleEnd = titleEdition.index;
  }
  if (!edition) {
    const tailEdition = EDITION.exec(text.slice(tailStart));
    if (tailEdition) edition = normaliseEdition(tailEdition[1]);
  }
  let title = cleanTitle(text.slice(0, titleEnd));
  if (!title) {
    title = cleanTitle(text.slice(0, Math.max(stop, titleEnd)));
    if (!title) tailStart = 0;
  }
  return { title, year: yearMatch ? Number(yearMatch[1]) : null, edition, tailStart: offset + tailStart };
}
