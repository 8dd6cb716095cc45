import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';

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

export interface WorkflowSearchAttributes {
  kind: string;
  arrType?: string;
  instanceIds?: number[];
  trigger?: string;
  syncStatus?: string;
  rolloutStatus?: string;
  databaseId?: number;
  sourceId?: number;
}

/** The search attributes of a workflow start, in one shape for every starter. */
export function searchAttributes(values: WorkflowSearchAttributes): SearchAttributePair[] {
  const pairs: SearchAttributePair[] = [{ key: SA.kind, value: values.kind }];
  if (values.arrType !== undefined) pairs.push({ key: SA.arrType, value: values.arrType });
  if (values.instanceIds !== undefined) pairs.push({ key: SA.instanceIds, value: values.instanceIds.map(String) });
  if (values.trigger !== undefined) pairs.push({ key: SA.trigger, value: values.trigger });
  if (values.syncStatus !== undefined) pairs.push({ key: SA.syncStatus, value: values.syncStatus });
  if (values.rolloutStatus !== undefined) pairs.push({ key: SA.rolloutStatus, value: values.rolloutStatus });
  if (values.databaseId !== undefined) pairs.push({ key: SA.databaseId, value: values.databaseId });
  if (values.sourceId !== undefined) pairs.push({ key: SA.sourceId, value: values.sourceId });
  return pairs;
}
