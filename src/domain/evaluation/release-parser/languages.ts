/**
 * Languages named in a release title, as the apps' Language resource names them. Read only after the title,
 * so a film called "The German" is not German.
 */

/** Full names, long tags and unambiguous codes (whole words): matched in any letter case ("iTALiAN", "iTA", "Vostfr"). */
const WORDS: ReadonlyArray<[string, string]> = [
  ['english|eng', 'English'],
  ['french|truefrench|vostfr|vff|vfq|vfi|francais|français', 'French'],
  ['spanish|espanol|español|castellano', 'Spanish'],
  ['latino|latam', 'Spanish (Latino)'],
  ['german|deutsch|ger', 'German'],
  ['italian|italiano|ita', 'Italian'],
  ['danish|dansk', 'Danish'],
  ['dutch|nederlands', 'Dutch'],
  ['flemish|vlaams', 'Flemish'],
  ['japanese', 'Japanese'],
  ['icelandic', 'Icelandic'],
  ['chinese|mandarin|cantonese', 'Chinese'],
  ['russian|rus', 'Russian'],
  ['polish|polski|pldub|lektor', 'Polish'],
  ['vietnamese', 'Vietnamese'],
  ['swedish|svenska', 'Swedish'],
  ['norwegian|norsk', 'Norwegian'],
  ['finnish|suomi', 'Finnish'],
  ['turkish', 'Turkish'],
  ['brazilian|dublado|ptbr', 'Portuguese (Brazil)'],
  ['portuguese', 'Portuguese'],
  ['greek', 'Greek'],
  ['korean', 'Korean'],
  ['hungarian|hundub', 'Hungarian'],
  ['hebrew|hebdub', 'Hebrew'],
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
  ['FR|FRE|VF|VF2', 'French'], ['ESP|SPA', 'Spanish'],
  ['DAN', 'Danish'], ['NL', 'Dutch'], ['JAP|JPN', 'Japanese'], ['CHI|CHS|CHT', 'Chinese'],
  ['POL|PL', 'Polish'], ['SWE', 'Swedish'], ['NOR', 'Norwegian'], ['FIN', 'Finnish'], ['TUR', 'Turkish'],
  ['POR', 'Portuguese'], ['KOR', 'Korean'], ['HUN', 'Hungarian'], ['HEB', 'Hebrew'], ['CZ|CZE', 'Czech'],
  ['RUM', 'Romanian'], ['BG|BUL', 'Bulgarian'], ['UKR', 'Ukrainian'],
  ['EST', 'Estonian'], ['SLO', 'Slovak'], ['CAT', 'Catalan'], ['HIN', 'Hindi'], ['ARA', 'Arabic'], ['TAM', 'Tamil'],
  ['TEL', 'Telugu'],
];

const WORD_LOOKUP = new Map<string, string>();
for (const [pattern, name] of WORDS) for (const word of pattern.split('|')) WORD_LOOKUP.set(word, name);
const CODE_LOOKUP = new Map<string, string>();
for (const [pattern, name] of CODES) for (const code of pattern.split('|')) CODE_LOOKUP.set(code, name);
/** Two-word tags, looked up joined and lower-cased ("PT-BR", "Spanish.Latino"). */
const PAIR_LOOKUP = new Map<string, string>([['ptbr', 'Portuguese (Brazil)'], ['spanishlatino', 'Spanish (Latino)']]);
/** "Multi-Subs" / "Dual Subs" name subtitles, not audio tracks. */
const SUBTITLE_WORD = /^(?:sub|subs|subbed|subtitles?|softsubs?|hardsubs?|forced)$/;
const TOKEN_SPLIT = /[^\p{L}\p{N}]+/u;

/** Languages in order of appearance, then 'Original' when the release carries the original-language track
 * (dual-language "DL"/"ML", MULTi, dual audio); ['Unknown'] when none is named. */
export function parseLanguages(tail: string): string[] {
  const tokens = tail.split(TOKEN_SPLIT).filter(Boolean);
  const languages: string[] = [];
  let original = false;
  const add = (name: string): void => {
    if (!languages.includes(name)) languages.push(name);
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const lower = token.toLowerCase();
    const pair = i + 1 < tokens.length ? PAIR_LOOKUP.get(lower + tokens[i + 1].toLowerCase()) : undefined;
    if (pair) {
      add(pair);
      i++;
      continue;
    }
    const next = tokens[i + 1]?.toLowerCase() ?? '';
    const name = WORD_LOOKUP.get(lower) ?? CODE_LOOKUP.get(token);
    // "GERMAN.SUBBED", "ENG.SUB": the language of the subtitles, not of the audio
    if (name && !SUBTITLE_WORD.test(next)) add(name);
    if (((lower === 'multi' || lower === 'dual') && !next.startsWith('sub')) || ((token === 'DL' || token === 'ML') && tokens[i - 1]?.toLowerCase() !== 'web')) original = true;
  }
  if (original) languages.push('Original');
  return languages.length > 0 ? languages : ['Unknown'];
}
