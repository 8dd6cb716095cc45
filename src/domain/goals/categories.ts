/**
 * The closed set of custom-format categories the goal engine scores (service spec, "Category"),
 * and the families a release can match at most one member of at a time (used by thresholds).
 */
export const CATEGORIES = [
  'unwanted',
  'hdr_dv',
  'hdr_hdr10plus',
  'hdr_baseline',
  'remux',
  'release_group_tier_1',
  'release_group_tier_2',
  'release_group_tier_3',
  'audio_lossless',
  'audio_advanced',
  'audio_baseline',
  'streaming_service',
  'movie_version',
  'repack_proper',
  'resolution',
] as const;

export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value);
}

export const RELEASE_GROUP_TIERS: readonly Category[] = ['release_group_tier_1', 'release_group_tier_2', 'release_group_tier_3'];
export const AUDIO_CATEGORIES: readonly Category[] = ['audio_lossless', 'audio_advanced', 'audio_baseline'];
export const HDR_CATEGORIES: readonly Category[] = ['hdr_dv', 'hdr_hdr10plus', 'hdr_baseline'];

/**
 * Families of categories a single release matches at most one format of (one audio track format,
 * one group tier, ...). The best score of each family adds up to the best score a release can reach.
 * `unwanted` is not a family: it only ever lowers a score.
 */
export const SCORE_FAMILIES: readonly (readonly Category[])[] = [
  RELEASE_GROUP_TIERS,
  AUDIO_CATEGORIES,
  HDR_CATEGORIES,
  ['remux'],
  ['streaming_service'],
  ['movie_version'],
  ['repack_proper'],
  ['resolution'],
];
