/**
 * The declared properties of each request resource, per app (OpenAPI components.schemas, all of
 * which have `additionalProperties: false`). Clients project payloads onto these shapes before
 * sending, so a caller that passes a richer object (a spread of an internal model, say) still sends
 * exactly what the app's API declares.
 */
import type { ArrType } from '../domain/arr-types';

export type Shape = { readonly [prop: string]: true | Shape | { readonly list: Shape } };

/**
 * Keeps only the declared properties (recursively); values that are not objects pass through.
 * A null nested object (a group's `quality`, say) is left out: the schemas declare those as
 * non-nullable references, and the apps treat absent and null alike.
 */
export function project<T>(shape: Shape, value: T): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [prop, spec] of Object.entries(shape)) {
    if (!(prop in source) || source[prop] === undefined) continue;
    const item = source[prop];
    if (spec === true) {
      result[prop] = item;
    } else if ('list' in spec && typeof (spec as { list: unknown }).list === 'object') {
      const inner = (spec as { list: Shape }).list;
      result[prop] = Array.isArray(item) ? item.map((element) => project(inner, element)) : item;
    } else if (item !== null) {
      result[prop] = project(spec as Shape, item);
    }
  }
  return result as T;
}

function customFormatShape(selectOptionDivider: boolean): Shape {
  const selectOption: Shape = selectOptionDivider
    ? { value: true, name: true, order: true, hint: true, dividerAfter: true }
    : { value: true, name: true, order: true, hint: true };
  const field: Shape = {
    order: true,
    name: true,
    label: true,
    unit: true,
    helpText: true,
    helpTextWarning: true,
    helpLink: true,
    value: true,
    type: true,
    advanced: true,
    selectOptions: { list: selectOption },
    selectOptionsProviderAction: true,
    section: true,
    hidden: true,
    privacy: true,
    placeholder: true,
    isFloat: true,
  };
  const specification: Shape = {
    id: true,
    name: true,
    implementation: true,
    implementationName: true,
    infoLink: true,
    negate: true,
    required: true,
    fields: { list: field },
  };
  return { id: true, name: true, includeCustomFormatWhenRenaming: true, specifications: { list: specification } };
}

const formatItem: Shape = { id: true, format: true, name: true, score: true };
const delayProfile: Shape = {
  id: true,
  enableUsenet: true,
  enableTorrent: true,
  preferredProtocol: true,
  usenetDelay: true,
  torrentDelay: true,
  bypassIfHighestQuality: true,
  bypassIfAboveCustomFormatScore: true,
  minimumCustomFormatScore: true,
  order: true,
  tags: true,
};
const tag: Shape = { id: true, label: true };

function qualityItem(quality: Shape): Shape {
  const item: Record<string, Shape[string]> = { id: true, name: true, quality, allowed: true };
  item.items = { list: item };
  return item;
}

function keys(...names: string[]): Shape {
  return Object.fromEntries(names.map((name) => [name, true]));
}

export interface AppShapes {
  customFormat: Shape;
  qualityProfile: Shape;
  qualityDefinition: Shape;
  delayProfile: Shape;
  tag: Shape;
  naming: Shape;
  mediaManagement: Shape;
  metadataProfile?: Shape;
}

function appShapes(quality: Shape, profileExtras: string[], naming: Shape, mediaManagement: Shape, language: boolean, selectOptionDivider: boolean): AppShapes {
  const profile: Record<string, Shape[string]> = {
    id: true,
    name: true,
    upgradeAllowed: true,
    cutoff: true,
    items: { list: qualityItem(quality) },
    minFormatScore: true,
    cutoffFormatScore: true,
    formatItems: { list: formatItem },
    ...Object.fromEntries(profileExtras.map((name) => [name, true])),
  };
  if (language) profile.language = keys('id', 'name');
  return {
    customFormat: customFormatShape(selectOptionDivider),
    qualityProfile: profile,
    qualityDefinition: { id: true, quality, title: true, weight: true, minSize: true, maxSize: true, preferredSize: true },
    delayProfile,
    tag,
    naming,
    mediaManagement,
  };
}

const MEDIA_COMMON = [
  'id',
  'recycleBin',
  'recycleBinCleanupDays',
  'downloadPropersAndRepacks',
  'deleteEmptyFolders',
  'fileDate',
  'rescanAfterRefresh',
  'setPermissionsLinux',
  'chmodFolder',
  'chownGroup',
  'skipFreeSpaceCheckWhenImporting',
  'minimumFreeSpaceWhenImporting',
  'copyUsingHardlinks',
  'useScriptImport',
  'scriptImportPath',
  'importExtraFiles',
  'extraFileExtensions',
  'enableMediaInfo',
];

const albumType = keys('id', 'name');

export const SHAPES: Record<ArrType, AppShapes> = {
  movie_app: appShapes(
    keys('id', 'name', 'source', 'resolution', 'modifier'),
    ['minUpgradeFormatScore'],
    keys('id', 'renameMovies', 'replaceIllegalCharacters', 'colonReplacementFormat', 'standardMovieFormat', 'movieFolderFormat'),
    keys(...MEDIA_COMMON, 'autoUnmonitorPreviouslyDownloadedMovies', 'createEmptyMovieFolders', 'autoRenameFolders', 'pathsDefaultStatic'),
    true,
    true,
  ),
  series_app: appShapes(
    keys('id', 'name', 'source', 'resolution'),
    ['minUpgradeFormatScore'],
    keys(
      'id',
      'renameEpisodes',
      'replaceIllegalCharacters',
      'colonReplacementFormat',
      'customColonReplacementFormat',
      'multiEpisodeStyle',
      'standardEpisodeFormat',
      'dailyEpisodeFormat',
      'animeEpisodeFormat',
      'seriesFolderFormat',
      'seasonFolderFormat',
      'specialsFolderFormat',
    ),
    keys(...MEDIA_COMMON, 'autoUnmonitorPreviouslyDownloadedEpisodes', 'createEmptySeriesFolders', 'episodeTitleRequired'),
    false,
    false,
  ),
  music_app: {
    ...appShapes(
      keys('id', 'name'),
      [],
      keys(
        'id',
        'renameTracks',
        'replaceIllegalCharacters',
        'colonReplacementFormat',
        'standardTrackFormat',
        'multiDiscTrackFormat',
        'artistFolderFormat',
        'includeArtistName',
        'includeAlbumTitle',
        'includeQuality',
        'replaceSpaces',
        'separator',
        'numberStyle',
      ),
      keys(...MEDIA_COMMON, 'autoUnmonitorPreviouslyDownloadedTracks', 'createEmptyArtistFolders', 'watchLibraryForChanges', 'allowFingerprinting'),
      false,
      false,
    ),
    metadataProfile: {
      id: true,
      name: true,
      primaryAlbumTypes: { list: { id: true, albumType, allowed: true } },
      secondaryAlbumTypes: { list: { id: true, albumType, allowed: true } },
      releaseStatuses: { list: { id: true, releaseStatus: albumType, allowed: true } },
    },
  },
};
