/** Reference-guide catalog (pure): TRaSH Guides parsing, cache replacement plans, conversion to PCD data, alignment. */
export * from './types';
export { parseTrashGuides, trashAppDir, derivedRefId, stableJson, scoreInSet, countByType, TRASH_ENTITY_DIRS, type GuideParseResult, type Digests } from './trash-guides';
export { planCacheReplacement, type CachePlan, type CachedRow } from './cache-plan';
export { guideFormatToPcd, guideProfileToPcd, guideQualitySizeToPcd, guideSpecifications, canonicalQuality, type PatternNeed, type FormatConversion, type ProfileConversion, type QualitySizeConversion } from './to-pcd';
export { mergeFamilyFormat, EXISTING_FORMAT_ACTIONS, type ExistingFormatAction, type FormatMerge } from './merge-format';
export { alignWithGuide, desiredSpecKeys, guideSpecKeys, type ReferenceAlignment, type AlignmentCounts, type GuideFormatRef, type GuideProfileRef } from './alignment';
export { REF_GUIDE_FAILURES, refGuideFailureText, type RefGuideFailure } from './failures';
