import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Registered in the dev server at start and in the compose stack (temporal/search-attributes.json).
export const SA = {
  kind: defineSearchAttributeKey('ArrgoKind', SearchAttributeType.KEYWORD),
  arrType: defineSearchAttributeKey('ArrgoArrType', SearchAttributeType.KEYWORD),
  instanceIds: defineSearchAttributeKey('ArrgoInstanceIds', SearchAttributeType.KEYWORD_LIST),
  rolloutStatus: defineSearchAttributeKey('ArrgoRolloutStatus', SearchAttributeType.KEYWORD),
  syncStatus: defineSearchAttributeKey('ArrgoSyncStatus', SearchAttributeType.KEYWORD),
  trigger: defineSearchAttributeKey('ArrgoTrigger', SearchAttributeType.KEYWORD),
  databaseId: defineSearchAttributeKey('ArrgoDatabaseId', SearchAttributeType.INT),
  /** Reference-guide source id. */
  sourceId: defineSearchAttributeKey('ArrgoSourceId', SearchAttributeType.INT),
} as const;
