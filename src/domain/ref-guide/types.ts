/**
 * Reference-guide catalog vocabulary: source types, the app families a guide covers, entity types
 * and refIds. Pure types and constants.
 */
import type { ArrType } from '../arr-types';

export const REF_GUIDE_TYPES = ['trash-guides'] as const;
export type RefGuideType = (typeof REF_GUIDE_TYPES)[number];

/** The app families the TRaSH Guides cover (docs/json/radarr and docs/json/sonarr). */
export const REF_GUIDE_ARR_TYPES = ['movie_app', 'series_app'] as const satisfies readonly ArrType[];
export type RefGuideArrType = (typeof REF_GUIDE_ARR_TYPES)[number];

export const REF_ENTITY_TYPES = ['custom_format', 'custom_format_group', 'quality_profile', 'quality_size', 'naming'] as const;
export type RefEntityType = (typeof REF_ENTITY_TYPES)[number];

/** The guide entities the import writes into a PCD user layer (a quality size as the family's quality definitions). */
export const REF_GUIDE_IMPORTABLE_TYPES = ['custom_format', 'quality_profile', 'quality_size'] as const satisfies readonly RefEntityType[];
export type RefGuideImportableType = (typeof REF_GUIDE_IMPORTABLE_TYPES)[number];

export function isRefEntityType(value: string): value is RefEntityType {
  return (REF_ENTITY_TYPES as readonly string[]).includes(value);
}

/** A refId: the guide's trash_id, 32 lowercase hex characters (or one derived the same shape). */
export const REF_ID_PATTERN = /^[0-9a-f]{32}$/;

/** One entity of a guide as the cache keeps it. */
export interface GuideEntity {
  type: RefEntityType;
  refId: string;
  name: string;
  /** Path of the file inside the guide repository, e.g. docs/json/radarr/cf/1080p.json. */
  filePath: string;
  /** The file's JSON object as the guide has it. */
  entity: Record<string, unknown>;
  /** custom_format: trash_scores (score set -> score); quality_profile: custom format name -> score in the profile's score set. */
  scores: Record<string, number> | null;
  /** quality_profile: the guide's group number. */
  group: number | null;
  /** sha256 of everything above (stable key order): an unchanged hash means nothing to rewrite. */
  hash: string;
}

/** A file of the guide repository: path relative to the repository root, and its text. */
export interface GuideFile {
  path: string;
  text: string;
}
