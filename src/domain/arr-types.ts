/**
 * App families. The API and every arrType field speak movie_app/series_app/music_app (and "all"
 * where stated); PCD repositories store radarr/sonarr/lidarr/all in their arr_type columns.
 * This module is the one place that maps between the two vocabularies.
 */
export const ARR_TYPES = ['movie_app', 'series_app', 'music_app'] as const;
export type ArrType = (typeof ARR_TYPES)[number];
export type ArrTypeOrAll = ArrType | 'all';

export const PCD_ARR_TYPES = ['radarr', 'sonarr', 'lidarr'] as const;
export type PcdArrType = (typeof PCD_ARR_TYPES)[number];
export type PcdArrTypeOrAll = PcdArrType | 'all';

const TO_PCD: Record<ArrType, PcdArrType> = { movie_app: 'radarr', series_app: 'sonarr', music_app: 'lidarr' };
const FROM_PCD: Record<PcdArrType, ArrType> = { radarr: 'movie_app', sonarr: 'series_app', lidarr: 'music_app' };

export function toPcdArrType(arrType: ArrType): PcdArrType;
export function toPcdArrType(arrType: ArrTypeOrAll): PcdArrTypeOrAll;
export function toPcdArrType(arrType: ArrTypeOrAll): PcdArrTypeOrAll {
  return arrType === 'all' ? 'all' : TO_PCD[arrType];
}

/**
 * The other spelling of each app family that requests may use (a PCD manifest's radarr, sonarr,
 * lidarr); answers always use movie_app, series_app, music_app.
 */
export const ARR_TYPE_ALIASES: Readonly<Record<PcdArrType, ArrType>> = FROM_PCD;

/** Maps a PCD arr_type value; unknown values give null so callers can refuse them explicitly. */
export function fromPcdArrType(value: string): ArrTypeOrAll | null {
  if (value === 'all') return 'all';
  return (FROM_PCD as Record<string, ArrType>)[value] ?? null;
}

export function isArrType(value: unknown): value is ArrType {
  return typeof value === 'string' && (ARR_TYPES as readonly string[]).includes(value);
}

/** The app each family talks to, and the API version path it uses. */
export const APP_OF: Record<ArrType, { app: 'radarr' | 'sonarr' | 'lidarr'; label: string; apiBase: string }> = {
  movie_app: { app: 'radarr', label: 'Radarr', apiBase: '/api/v3' },
  series_app: { app: 'sonarr', label: 'Sonarr', apiBase: '/api/v3' },
  music_app: { app: 'lidarr', label: 'Lidarr', apiBase: '/api/v1' },
};

/**
 * The family of the app that reports `appName` in its system/status (Radarr, Sonarr, Lidarr, any
 * case); null for any other app (Prowlarr, Readarr, something else entirely).
 */
export function arrTypeOfAppName(appName: string): ArrType | null {
  const name = appName.trim().toLowerCase();
  return ARR_TYPES.find((arrType) => APP_OF[arrType].app === name) ?? null;
}

/** "Radarr, Sonarr or Lidarr": the apps arrgo manages, for messages. */
export const MANAGED_APPS_TEXT = `${ARR_TYPES.slice(0, -1).map((t) => APP_OF[t].label).join(', ')} or ${APP_OF[ARR_TYPES[ARR_TYPES.length - 1]].label}`;

/** "Sonarr (series_app)": how messages name an app family. */
export function describeArrType(arrType: ArrType): string {
  return `${APP_OF[arrType].label} (${arrType})`;
}
