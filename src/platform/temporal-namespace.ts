import Long from 'long';
import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { readSearchAttributes } from '../../temporal/provision.cjs';

const TYPES: Record<string, temporal.api.enums.v1.IndexedValueType> = {
  Text: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  Keyword: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  Int: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
  Double: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  Bool: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  Datetime: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  KeywordList: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

/**
 * Registers a namespace (when missing) and arrgo's search attributes on it, for servers that were
 * not started by arrgo's own provisioning. Idempotent.
 */
export async function ensureNamespace(connection: Connection, namespace: string, retentionDays = 7): Promise<void> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
  } catch {
    try {
      await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: { seconds: Long.fromNumber(retentionDays * 86_400) } });
    } catch (error) {
      if (!/already/i.test(String((error as Error).message))) throw error;
    }
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const existing = await connection.operatorService.listSearchAttributes({ namespace });
      const wanted = readSearchAttributes();
      const missing = Object.entries(wanted).filter(([name]) => !(name in (existing.customAttributes ?? {})));
      if (missing.length) {
        await connection.operatorService.addSearchAttributes({
          namespace,
          searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, TYPES[type]])),
        });
      }
      await connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
