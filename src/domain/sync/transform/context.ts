/**
 * What every transform step shares: the target family, the app catalog, the namespace and the issue
 * collector.
 */
import { APP_OF, type ArrType } from '../../arr-types';
import type { AppCatalog, SyncEntityType, SyncIssue, SyncIssueSeverity, SyncSection } from '../types';

export interface TransformContext {
  arrType: ArrType;
  catalog: AppCatalog;
  namespace: string | null;
  issues: SyncIssue[];
}

export function appLabel(arrType: ArrType): string {
  return APP_OF[arrType].label;
}

export function report(
  ctx: TransformContext,
  severity: SyncIssueSeverity,
  section: SyncSection,
  entityType: SyncEntityType,
  name: string,
  message: string,
): void {
  ctx.issues.push({ severity, section, entityType, name, message });
}
