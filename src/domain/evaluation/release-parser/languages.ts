/**
 * Languages named in a release title, as the apps' Language resource names them. Read only after the title,
 * so a film called "The German" is not German.
 */

/** Full names and long tags: matched in any letter case ("iTALiAN", "FRENCH", "Vostfr"). */
const WORDS: ReadonlyArray<[string, string]> = [
  ['english', 'English'],
  ['french|truefrench|vostfr|vff|vfq|vfi|francais|français', 'French'],
  ['spanish|espanol|español|castellano', 'Spanish'],
  ['latino|spanish[-_. ]?latino', 'Spanish (Latino)'],
  ['german|deutsch', 'German'],
  ['italian|italiano', 'Italian'],
  ['danish|dansk', 'Danish'],
  ['dutch|nederlands', 'Dutch'],
  ['flemish|vlaams', 'Flemish'],
  ['japanese', 'Japanese'],
  ['icelandic', 'Icelandic'],
  ['chinese|mandarin|cantonese', 'Chinese'],
  ['russian', 'Russian'],
  ['polish|polski|pldub|lektor', 'Polish'],
  ['vietnamese', 'Vietnamese'],
  ['swedish|svenska', 'Swedish'],
  ['norwegian|norsk', 'Norwegian'],
  ['finnish|suomi', 'Finnish'],
  ['turkish', 'Turkish'],
  ['brazilian|dublado|pt[-_. ]?br', 'Portuguese (Brazil)'],
  ['portuguese', 'Portuguese'],
  ['greek', 'Greek'],
  ['korean', 'Korean'],
  ['hungarian|hundub', 'Hungarian'],
  ['hebrew', 'Hebrew'],
  ['lithuanian', 'Lithuanian'],
  ['czech', 'Czech'],
  ['romanian', 'Romanian'],
  ['hindi', 'Hindi'],
  ['thai', 'Thai'],
  ['bulgarian', 'Bulgarian'],
  ['arabic', 'Arabic'],
  ['ukrainian', 'Ukrainian'],
  ['persian|farsi', 'Persian'],
  ['bengali', 'Bengali'],
  ['slovak', 'Slovak'],
  ['latvian', 'Latvian'],
  ['catalan|catala', 'Catalan'],
  ['croatian', 'Croatian'],
  ['serbian', 'Serbian'],
  ['bosnian', 'Bosnian'],
  ['estonian', 'Estonian'],
  ['tamil', 'Tamil'],
  ['indonesian', 'Indonesian'],
  ['telugu', 'Telugu'],
  ['macedonian', 'Macedonian'],
  ['slovenian', 'Slovenian'],
  ['malayalam', 'Malayalam'],
  ['kannada', 'Kannada'],
  ['albanian', 'Albanian'],
  ['afrikaans', 'Afrikaans'],
  ['marathi', 'Marathi'],
  ['tagalog', 'Tagalog'],
  ['urdu', 'Urdu'],
  ['romansh', 'Romansh'],
  ['mongolian', 'Mongolian'],
  ['georgian', 'Georgian'],
];

/** Short release tags: matched only in capitals, since they are ordinary words otherwise ("ITA", "GER", "NL"). */
const CODES: ReadonlyArray<[string, string]> = [
  ['ENG', 'English'], ['FR|FRE|VF|VF2', 'French'], ['ESP|SPA', 'Spanish'], ['GER', 'German'], ['ITA', 'Italian'],
  ['DAN', 'Danish'], ['NL', 'Dutch'], ['JAP|JPN', 'Japanese'], ['CHI|CHS|CHT', 'Chinese'], ['RUS', 'Russian'],
  ['POL|PL', 'Polish'], ['SWE', 'Swedish'], ['NOR', 'Norwegian'], ['FIN', 'Finnish'], ['TUR', 'Turkish'],
  ['POR', 'Portuguese'], ['KOR', 'Korean'], ['HUN', 'Hungarian'], ['HEB', 'Hebrew'], ['CZ|CZE', 'Czech'],
  ['RUM', 'Romanian'], ['BG|BUL', 'Bulgarian'], ['UKR', 'Ukrainian'],
  ['EST', 'Estonian'], ['SLO', 'Slovak'], ['CAT', 'Catalan'], ['HIN', 'Hindi'], ['ARA', 'Arabic'], ['TAM', 'Tamil'],
  ['TEL', 'Telugu'],
];

const EDGE_L = '(?<![\\p{L}\\p{N}])';
const EDGE_R = '(?![\\p{L}\\p{N}])';
const WORD_PATTERNS = WORDS.map(([pattern, name]) => [new RegExp(`${EDGE_L}(?:${pattern})${EDGE_R}`, 'iu'), name] as const);
const CODE_PATTERNS = CODES.map(([pattern, name]) => [new RegExp(`${EDGE_L}(?:${pattern})${EDGE_R}`, 'u'), name] as const);
/** Dual-language ("DL", "ML"), MULTi and dual-audio releases carry the original-language track. */
const ORIGINAL_TRACK = /(?<![\p{L}\p{N}])(?:(?<!WEB[-_. ]?)(?:DL|ML)|MULTI|Dual[-_. ]?Audio|DUAL)(?![\p{L}\p{N}])/iu;
const ORIGINAL_CASE_CHECK = /^(?:DL|ML)$/;

export function parseLanguages(tail: string): string[] {
  const found: Array<[number, string]> = [];
  for (const [re, name] of WORD_PATTERNS) {
    const m = re.exec(tail);
    if (m) found.push([m.index, name]);
  }
  for (const [re, name] of CODE_PATTERNS) {
    const m = re.exec(tail);
    if (m) found.push([m.index, name]);
  }
  found.sort((a, b) => a[0] - b[0]);
  const languages = [...new Set(found.map(([, name]) => name))];
  const original = ORIGINAL_TRACK.exec(tail);
  if (original && (original[0].length > 2 || ORIGINAL_CASE_CHECK.test(original[0]))) languages.push('Original');
  return languages.length > 0 ? languages : ['Unknown'];
}
