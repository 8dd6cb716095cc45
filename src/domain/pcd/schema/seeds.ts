/**
 * Seed rows of the schema layer: canonical qualities with the name each app's API uses, and
 * languages. PCD canonical quality names are the Radarr spellings for video qualities and the
 * Lidarr spellings for audio qualities; an app without a quality has no mapping row.
 */
import type { PcdArrType } from '../../arr-types';

export interface QualitySeed {
  /** Canonical PCD name. */
  name: string;
  /** API name per app; absent = the app has no such quality. */
  api: Partial<Record<PcdArrType, string>>;
}

const both = (name: string, sonarrName = name): QualitySeed => ({ name, api: { radarr: name, sonarr: sonarrName } });
const radarrOnly = (name: string): QualitySeed => ({ name, api: { radarr: name } });
const lidarrOnly = (name: string): QualitySeed => ({ name, api: { lidarr: name } });

/** Video qualities, lowest first (Radarr's ordering). */
const VIDEO: QualitySeed[] = [
  { name: 'Unknown', api: { radarr: 'Unknown', sonarr: 'Unknown', lidarr: 'Unknown' } },
  radarrOnly('WORKPRINT'),
  radarrOnly('CAM'),
  radarrOnly('TELESYNC'),
  radarrOnly('TELECINE'),
  radarrOnly('REGIONAL'),
  radarrOnly('DVDSCR'),
  both('SDTV'),
  both('DVD'),
  radarrOnly('DVD-R'),
  // Sonarr dropped its HDTV-480p quality; PCD profiles may still list it (disabled), so it is
  // canonical but mapped to no app.
  { name: 'HDTV-480p', api: {} },
  both('WEBDL-480p'),
  both('WEBRip-480p'),
  both('Bluray-480p'),
  both('Bluray-576p'),
  both('HDTV-720p'),
  both('WEBDL-720p'),
  both('WEBRip-720p'),
  both('Bluray-720p'),
  both('HDTV-1080p'),
  both('WEBDL-1080p'),
  both('WEBRip-1080p'),
  both('Bluray-1080p'),
  both('Remux-1080p', 'Bluray-1080p Remux'),
  both('HDTV-2160p'),
  both('WEBDL-2160p'),
  both('WEBRip-2160p'),
  both('Bluray-2160p'),
  both('Remux-2160p', 'Bluray-2160p Remux'),
  radarrOnly('BR-DISK'),
  both('Raw-HD'),
];

/** Lidarr audio qualities, lowest first (Lidarr's ordering). 'Unknown' is shared with video. */
const AUDIO: QualitySeed[] = [
  'MP3-8',
  'MP3-16',
  'MP3-24',
  'MP3-32',
  'MP3-40',
  'MP3-48',
  'MP3-56',
  'MP3-64',
  'MP3-80',
  'MP3-96',
  'MP3-112',
  'MP3-128',
  'MP3-160',
  'MP3-192',
  'MP3-224',
  'MP3-VBR-V0',
  'MP3-256',
  'MP3-320',
  'MP3-VBR-V2',
  'AAC-192',
  'AAC-256',
  'AAC-320',
  'AAC-VBR',
  'WMA',
  'OGG Vorbis Q10',
  'OGG Vorbis Q9',
  'OGG Vorbis Q8',
  'OGG Vorbis Q7',
  'OGG Vorbis Q6',
  'OGG Vorbis Q5',
  'ALAC',
  'FLAC',
  'APE',
  'WavPack',
  'FLAC 24bit',
  'WAV',
].map(lidarrOnly);

export const QUALITY_SEEDS: readonly QualitySeed[] = [...VIDEO, ...AUDIO];

/** Union of the language names of Radarr and Sonarr, including the special 'Any' and 'Original'. */
export const LANGUAGE_SEEDS: readonly string[] = [
  'Unknown',
  'English',
  'French',
  'Spanish',
  'German',
  'Italian',
  'Danish',
  'Dutch',
  'Japanese',
  'Icelandic',
  'Chinese',
  'Russian',
  'Polish',
  'Vietnamese',
  'Swedish',
  'Norwegian',
  'Finnish',
  'Turkish',
  'Portuguese',
  'Flemish',
  'Greek',
  'Korean',
  'Hungarian',
  'Hebrew',
  'Lithuanian',
  'Czech',
  'Hindi',
  'Romanian',
  'Thai',
  'Bulgarian',
  'Portuguese (Brazil)',
  'Arabic',
  'Ukrainian',
  'Persian',
  'Bengali',
  'Slovak',
  'Latvian',
  'Spanish (Latino)',
  'Catalan',
  'Croatian',
  'Serbian',
  'Bosnian',
  'Estonian',
  'Tamil',
  'Indonesian',
  'Telugu',
  'Macedonian',
  'Slovenian',
  'Malayalam',
  'Kannada',
  'Albanian',
  'Afrikaans',
  'Marathi',
  'Tagalog',
  'Urdu',
  'Romansh',
  'Mongolian',
  'Georgian',
  'Azerbaijani',
  'Uzbek',
  'Malay',
  'Swiss German',
  'Any',
  'Original',
];

const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** Seed SQL, as the schema-layer file operations that replay records lineage for. */
export function seedFiles(): { file: string; sql: string }[] {
  const qualities = QUALITY_SEEDS.map((q) => `INSERT INTO qualities (name) VALUES (${lit(q.name)});`).join('\n');
  const mappings = QUALITY_SEEDS.flatMap((q) =>
    (Object.entries(q.api) as [PcdArrType, string][]).map(
      ([arr, api]) => `INSERT INTO quality_api_mappings (quality_name, arr_type, api_name) VALUES (${lit(q.name)}, '${arr}', ${lit(api)});`,
    ),
  ).join('\n');
  const languages = LANGUAGE_SEEDS.map((l) => `INSERT INTO languages (name) VALUES (${lit(l)});`).join('\n');
  return [
    { file: 'schema/seeds/qualities.sql', sql: qualities },
    { file: 'schema/seeds/quality_api_mappings.sql', sql: mappings },
    { file: 'schema/seeds/languages.sql', sql: languages },
  ];
}
