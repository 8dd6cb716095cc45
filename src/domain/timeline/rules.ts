import { validationError } from '../../errors';

/** Sources of the merged timeline, in the order used to break ties (source ascending). */
export const TIMELINE_SOURCES = ['canary', 'rollback', 'snapshot', 'sync'] as const;
export type TimelineSource = (typeof TIMELINE_SOURCES)[number];

export const SCOPE_KINDS = ['arr-instance', 'pcd-database'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

/** Normalized cross-source status, and its badge (colour variant). */
export const TIMELINE_STATUSES = ['success', 'partial', 'failed', 'running', 'pending', 'cancelled'] as const;
export type TimelineStatus = (typeof TIMELINE_STATUSES)[number];
export type TimelineBadge = 'success' | 'warning' | 'danger' | 'info' | 'neutral';

export const BADGES: Record<TimelineStatus, TimelineBadge> = {
  success: 'success',
  partial: 'warning',
  failed: 'danger',
  running: 'info',
  pending: 'warning',
  cancelled: 'neutral',
};

/** Each source's own statuses and the normalized status they map to (the table in the OpenAPI document). */
export const STATUS_MAP: Record<TimelineSource, Record<string, TimelineStatus>> = {
  sync: { running: 'running', success: 'success', partial: 'partial', failed: 'failed' },
  canary: { canary_running: 'running', awaiting_confirmation: 'pending', rolling_out: 'running', completed: 'success', aborted: 'cancelled', failed: 'failed' },
  snapshot: { success: 'success' },
  rollback: { running: 'running', success: 'success', failed: 'failed' },
};

export const SCOPE_OF: Record<TimelineSource, ScopeKind> = { sync: 'arr-instance', canary: 'arr-instance', snapshot: 'pcd-database', rollback: 'pcd-database' };

export function normalizeStatus(source: TimelineSource, raw: string): TimelineStatus {
  return STATUS_MAP[source][raw] ?? 'failed';
}

/** The source statuses a normalized status filter matches in one source (empty: the source cannot match). */
export function rawStatusesFor(source: TimelineSource, status: TimelineStatus): string[] {
  return Object.entries(STATUS_MAP[source])
    .filter(([, normalized]) => normalized === status)
    .map(([raw]) => raw);
}

export interface TimelineScopeFilter {
  sources?: TimelineSource[];
  scopeKind?: ScopeKind;
  instanceId?: number;
  arrType?: string;
  databaseId?: number;
  status?: TimelineStatus;
}

/**
 * The sources a filter includes, by the filter rules (AND, fail-closed):
 * 1. no scope filter: all four; 2. instanceId or arrType: sync and canary; 3. databaseId:
 * snapshot and rollback; 4. source intersects that set; 5. status (and time, text) apply inside
 * every included branch, so a source none of whose statuses match is dropped; 6. a scopeKind that
 * contradicts a supplied id, or instance-scoped with database-scoped filters, is a 400.
 */
export function includedSources(filter: TimelineScopeFilter): TimelineSource[] {
  const instanceScoped = filter.instanceId !== undefined || filter.arrType !== undefined;
  const databaseScoped = filter.databaseId !== undefined;
  if (instanceScoped && databaseScoped) {
    throw validationError(`Invalid request: query.databaseId cannot be combined with query.${filter.instanceId !== undefined ? 'instanceId' : 'arrType'}: a database scope and an app-instance scope never match the same event`);
  }
  if (filter.scopeKind === 'arr-instance' && databaseScoped) {
    throw validationError('Invalid request: query.scopeKind arr-instance contradicts query.databaseId (a pcd-database scope)');
  }
  if (filter.scopeKind === 'pcd-database' && instanceScoped) {
    throw validationError(`Invalid request: query.scopeKind pcd-database contradicts query.${filter.instanceId !== undefined ? 'instanceId' : 'arrType'} (an arr-instance scope)`);
  }
  let included: TimelineSource[] = [...TIMELINE_SOURCES];
  const kind: ScopeKind | undefined = filter.scopeKind ?? (instanceScoped ? 'arr-instance' : databaseScoped ? 'pcd-database' : undefined);
  if (kind) included = included.filter((s) => SCOPE_OF[s] === kind);
  if (filter.sources) included = included.filter((s) => filter.sources!.includes(s));
  const status = filter.status;
  if (status) included = included.filter((s) => rawStatusesFor(s, status).length > 0);
  return included;
}
