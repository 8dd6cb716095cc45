/**
 * The languages each app knows (Language.All of Radarr 6.1, Sonarr 4.0.19, Lidarr 2.14.5): ids as
 * the apps number them in language conditions and profiles. Emulators serve these lists; reference
 * guides (which carry ids) are read with them. The one list of language names: the release parser
 * names languages with `LanguageName`.
 */
import type { ArrType } from '../arr-types';

/** A language as the apps number it. */
export interface AppLanguage {
  id: number;
  name: string;
}

type Rows = readonly (readonly [number, string])[];
const named = (rows: Rows): AppLanguage[] => rows.map(([id, name]) => ({ id, name }));

const RADARR = [
  [0, 'Unknown'], [1, 'English'], [2, 'French'], [3, 'Spanish'], [4, 'German'], [5, 'Italian'], [6, 'Danish'],
  [7, 'Dutch'], [8, 'Japanese'], [9, 'Icelandic'], [10, 'Chinese'], [11, 'Russian'], [12, 'Polish'], [13, 'Vietnamese'],
  [14, 'Swedish'], [15, 'Norwegian'], [16, 'Finnish'], [17, 'Turkish'], [18, 'Portuguese'], [19, 'Flemish'], [20, 'Greek'],
  [21, 'Korean'], [22, 'Hungarian'], [23, 'Hebrew'], [24, 'Lithuanian'], [25, 'Czech'], [27, 'Romanian'], [26, 'Hindi'],
  [28, 'Thai'], [29, 'Bulgarian'], [30, 'Portuguese (Brazil)'], [31, 'Arabic'], [32, 'Ukrainian'], [33, 'Persian'],
  [34, 'Bengali'], [35, 'Slovak'], [36, 'Latvian'], [37, 'Spanish (Latino)'], [38, 'Catalan'], [39, 'Croatian'],
  [40, 'Serbian'], [41, 'Bosnian'], [42, 'Estonian'], [43, 'Tamil'], [44, 'Indonesian'], [45, 'Telugu'], [46, 'Macedonian'],
  [47, 'Slovenian'], [48, 'Malayalam'], [49, 'Kannada'], [50, 'Albanian'], [51, 'Afrikaans'], [52, 'Marathi'], [53, 'Tagalog'],
  [54, 'Urdu'], [55, 'Romansh'], [56, 'Mongolian'], [57, 'Georgian'], [-1, 'Any'], [-2, 'Original'],
] as const;

const SONARR = [
  [0, 'Unknown'], [1, 'English'], [2, 'French'], [3, 'Spanish'], [4, 'German'], [5, 'Italian'], [6, 'Danish'], [7, 'Dutch'],
  [8, 'Japanese'], [9, 'Icelandic'], [10, 'Chinese'], [11, 'Russian'], [12, 'Polish'], [13, 'Vietnamese'], [14, 'Swedish'],
  [15, 'Norwegian'], [16, 'Finnish'], [17, 'Turkish'], [18, 'Portuguese'], [19, 'Flemish'], [20, 'Greek'], [21, 'Korean'],
  [22, 'Hungarian'], [23, 'Hebrew'], [24, 'Lithuanian'], [25, 'Czech'], [26, 'Arabic'], [27, 'Hindi'], [28, 'Bulgarian'],
  [29, 'Malayalam'], [30, 'Ukrainian'], [31, 'Slovak'], [32, 'Thai'], [33, 'Portuguese (Brazil)'], [34, 'Spanish (Latino)'],
  [35, 'Romanian'], [36, 'Latvian'], [37, 'Persian'], [38, 'Catalan'], [39, 'Croatian'], [40, 'Serbian'], [41, 'Bosnian'],
  [42, 'Estonian'], [43, 'Tamil'], [44, 'Indonesian'], [45, 'Macedonian'], [46, 'Slovenian'], [-2, 'Original'],
] as const;

/**
 * Languages Sonarr's next line (v5, its develop branch) adds after 4.0.19, with the ids it gives them. Sonarr 4.0.19
 * neither lists nor parses them (emulators serve the 4.0.19 list); the release parser reads them for series as
 * Sonarr's current parser does.
 */
const SONARR_NEXT = [
  [47, 'Azerbaijani'], [48, 'Uzbek'], [49, 'Malay'], [50, 'Urdu'], [51, 'Romansh'], [52, 'Georgian'],
] as const;

const LIDARR = [
  [0, 'Unknown'], [1, 'English'], [2, 'French'], [3, 'Spanish'], [4, 'German'], [5, 'Italian'], [6, 'Danish'], [7, 'Dutch'],
  [8, 'Japanese'], [9, 'Icelandic'], [10, 'Chinese'], [11, 'Russian'], [12, 'Polish'], [13, 'Vietnamese'], [14, 'Swedish'],
  [15, 'Norwegian'], [16, 'Finnish'], [17, 'Turkish'], [18, 'Portuguese'], [19, 'Flemish'], [20, 'Greek'], [21, 'Korean'],
  [22, 'Hungarian'], [23, 'Hebrew'], [24, 'Lithuanian'], [25, 'Czech'], [27, 'Romanian'], [26, 'Hindi'], [28, 'Thai'],
  [29, 'Bulgarian'], [30, 'Portuguese (Brazil)'], [31, 'Arabic'], [-1, 'Any'], [-2, 'Original'],
] as const;

/** Every language name an app (or Sonarr's next line) knows. */
export type LanguageName = (typeof RADARR | typeof SONARR | typeof SONARR_NEXT | typeof LIDARR)[number][1];

export const APP_LANGUAGES: Readonly<Record<ArrType, readonly AppLanguage[]>> = {
  movie_app: named(RADARR),
  series_app: named(SONARR),
  music_app: named(LIDARR),
};

/** The language an app numbers `id`, or undefined. */
export function languageById(arrType: ArrType, id: number): AppLanguage | undefined {
  return APP_LANGUAGES[arrType].find((l) => l.id === id);
}
