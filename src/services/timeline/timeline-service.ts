import type { EntityManager } from '@mikro-orm/core';
import {
  BADGES,
  includedSources,
  normalizeStatus,
  rawStatusesFor,
  SCOPE_OF,
  TIMELINE_SOURCES,
  type ScopeKind,
  type TimelineBadge,
  type TimelineSource,
  type TimelineStatus,
} from '../../domain/timeline/rules';
import type { TimelineAnnotation } from '../../persistence/entities';
import type { ServiceDeps } from '../deps';

export interface TimelineFilter {
  sources?: TimelineSource[];
  scopeKind?: ScopeKind;
  instanceId?: number;
  arrType?: string;
  databaseId?: number;
  status?: TimelineStatus;
  from?: Date;
  to?: Date;
  q?: string;
  page: number;
  pageSize: number;
}

export interface AnnotationView {
  id: number;
  eventId: string;
  source: TimelineSource;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export interface TimelineItem {
  id: string;
  source: TimelineSource;
  occurredAt: string;
  subtype: string;
  status: TimelineStatus;
  badge: TimelineBadge;
  scope: { kind: ScopeKind; id: number | null; label: string; arrType: string | null };
  link: { api: string | null; workflowId: string | null; workflowUrl: string | null };
  /** Why the event ended as it did: a rollout's status reason, a sync run's or rollback's error (pre-authored); null otherwise. */
  reason: string | null;
  annotations: AnnotationView[];
}

export interface TimelinePage {
  items: TimelineItem[];
  counts: Record<TimelineSource, number>;
  page: number;
  pageSize: number;
  totalRecords: number;
  totalPages: number;
  hasNext: boolean;
}

/** One branch of the union: a source table read as timeline columns. */
interface Branch {
  source: TimelineSource;
  table: string;
  joins: string;
  occurred: string;
  columns: string;
  instance?: string;
  arrType?: string;
  database?: string;
  status: string;
  /** Free-text columns q searches (besides annotation text). */
  text: string[];
}

// Every branch selects the same columns, in this order.
const BRANCHES: Record<TimelineSource, Branch> = {
  sync: {
    source: 'sync',
    table: 'sync_runs r',
    joins: '',
    occurred: 'r.started_at',
    columns: `'sync' as source, r.id as source_id, r.started_at as occurred_at, r.trigger as subtype, r.status as raw_status, r.instance_id as scope_id, r.instance_name as scope_label, r.arr_type as arr_type, r.workflow_id as workflow_id, r.preview_id as link_id, r.error as reason`,
    instance: 'r.instance_id',
    arrType: 'r.arr_type',
    status: 'r.status',
    text: ['r.instance_name', 'r.error'],
  },
  canary: {
    source: 'canary',
    table: 'canary_rollouts c',
    joins: ' left join instances ci on ci.id = c.canary_instance_id',
    occurred: 'c.created_at',
    columns: `'canary' as source, c.id as source_id, c.created_at as occurred_at, c.trigger as subtype, c.status as raw_status, ci.id as scope_id, c.canary_instance_name as scope_label, c.arr_type as arr_type, c.workflow_id as workflow_id, c.id as link_id, c.status_reason as reason`,
    instance: 'c.canary_instance_id',
    arrType: 'c.arr_type',
    status: 'c.status',
    text: ['c.canary_instance_name', 'c.warning', 'c.status_reason'],
  },
  snapshot: {
    source: 'snapshot',
    table: 'pcd_snapshots s',
    joins: ' left join pcd_databases sd on sd.id = s.database_id',
    occurred: 's.created_at',
    columns: `'snapshot' as source, s.id as source_id, s.created_at as occurred_at, s.subtype as subtype, 'success' as raw_status, sd.id as scope_id, s.database_name as scope_label, null as arr_type, null as workflow_id, s.database_id as link_id, null as reason`,
    database: 's.database_id',
    status: `'success'`,
    text: ['s.database_name', 's.note'],
  },
  rollback: {
    source: 'rollback',
    table: 'pcd_rollbacks b',
    joins: ' left join pcd_databases bd on bd.id = b.database_id',
    occurred: 'b.started_at',
    columns: `'rollback' as source, b.id as source_id, b.started_at as occurred_at, b.trigger as subtype, b.status as raw_status, bd.id as scope_id, b.database_name as scope_label, null as arr_type, b.workflow_id as workflow_id, b.database_id as link_id, b.error as reason`,
    database: 'b.database_id',
    status: 'b.status',
    text: ['b.database_name', 'b.error'],
  },
};

const ID_COLUMN: Record<TimelineSource, string> = { sync: 'r.id', canary: 'c.id', snapshot: 's.id', rollback: 'b.id' };

interface Row {
  row_kind: string;
  source: TimelineSource;
  source_id: number | string;
  occurred_at: Date | number | string | null;
  subtype: string | null;
  raw_status: string | null;
  scope_id: number | string | null;
  scope_label: string | null;
  arr_type: string | null;
  workflow_id: string | null;
  link_id: number | string | null;
  reason: string | null;
  updated_at: Date | number | string | null;
}

function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The merged timeline in one statement: each included source is a branch with the filters,
 * order and a limit of page*pageSize pushed down (served by its (scope, time, id) indexes); the
 * union is ordered occurredAt desc, source asc, id desc and cut to the page; per-source counts of
 * the same filtered set ride along as extra rows of the same statement.
 */
export class TimelineService {
  /** The service over the current request's EntityManager, linking events to the Temporal Web UI. */
  static of(deps: Pick<ServiceDeps, 'orm' | 'config'> & { temporalUiUrl: string | null }): TimelineService {
    return new TimelineService(deps.orm.em, { temporalUiUrl: deps.temporalUiUrl, namespace: deps.config.temporal.namespace });
  }

  constructor(
    private readonly em: EntityManager,
    private readonly links: { temporalUiUrl: string | null; namespace: string },
  ) {}

  async list(filter: TimelineFilter): Promise<TimelinePage> {
    const sources = includedSources(filter);
    const counts = Object.fromEntries(TIMELINE_SOURCES.map((s) => [s, 0])) as Record<TimelineSource, number>;
    const empty = { items: [], counts, page: filter.page, pageSize: filter.pageSize, totalRecords: 0, totalPages: 0, hasNext: false };
    if (!sources.length) return empty;
    const platform = this.em.getPlatform();
    const date = (d: Date) => platform.processDateProperty(d) as unknown;
    const offset = (filter.page - 1) * filter.pageSize;

    const keyParts: string[] = [];
    const keyParams: unknown[] = [];
    const detailParts: string[] = [];
    const countParts: string[] = [];
    const countParams: unknown[] = [];
    for (const source of sources) {
      const b = BRANCHES[source];
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.instanceId !== undefined && b.instance) {
        where.push(`${b.instance} = ?`);
        params.push(filter.instanceId);
      }
      if (filter.arrType !== undefined && b.arrType) {
        where.push(`${b.arrType} = ?`);
        params.push(filter.arrType);
      }
      if (filter.databaseId !== undefined && b.database) {
        where.push(`${b.database} = ?`);
        params.push(filter.databaseId);
      }
      if (filter.status && source !== 'snapshot') {
        const raw = rawStatusesFor(source, filter.status);
        where.push(`${b.status} in (${raw.map(() => '?').join(', ')})`);
        params.push(...raw);
      }
      if (filter.from) {
        where.push(`${b.occurred} >= ?`);
        params.push(date(filter.from));
      }
      if (filter.to) {
        where.push(`${b.occurred} <= ?`);
        params.push(date(filter.to));
      }
      if (filter.q) {
        const pattern = likePattern(filter.q);
        const text = b.text.map((c) => `lower(${c}) like ? escape '\\'`);
        params.push(...b.text.map(() => pattern));
        text.push(`exists (select 1 from timeline_annotations a where a.source = '${source}' and a.source_id = ${ID_COLUMN[source]} and lower(a.body) like ? escape '\\')`);
        params.push(pattern);
        where.push(`(${text.join(' or ')})`);
      }
      const whereSql = where.length ? ` where ${where.join(' and ')}` : '';
      const id = ID_COLUMN[source];
      // Keys only (time, id), read backwards along the branch's (scope, time, id) index and cut at
      // offset+pageSize: no branch can contribute more to the page.
      keyParts.push(`select * from (select '${source}' as source, ${id} as source_id, ${b.occurred} as occurred_at from ${b.table}${whereSql} order by ${b.occurred} desc, ${id} desc limit ${offset + filter.pageSize}) as branch_${source}`);
      keyParams.push(...params);
      detailParts.push(`select 'item' as row_kind, ${b.columns}, null as updated_at from page_keys k join ${b.table} on k.source = '${source}' and ${id} = k.source_id${b.joins}`);
      // A scalar count(*) subquery: with no filter, SQLite answers it from the b-tree's page counts.
      countParts.push(`select 'count' as row_kind, '${source}' as source, cast((select count(*) from ${b.table}${whereSql}) as integer) as source_id, null as occurred_at, null as subtype, null as raw_status, null as scope_id, null as scope_label, null as arr_type, null as workflow_id, null as link_id, null as reason, null as updated_at`);
      countParams.push(...params);
    }
    // The page's keys first (PostgreSQL merges the branches' ordered keys in a merge append), then
    // only the page's rows are read in full, with their annotations (first, so that the union
    // types its columns).
    const annotationPart = `select 'annotation' as row_kind, a.source as source, a.source_id as source_id, a.created_at as occurred_at, null as subtype, null as raw_status, a.id as scope_id, a.body as scope_label, null as arr_type, null as workflow_id, null as link_id, null as reason, a.updated_at as updated_at from page_keys k join timeline_annotations a on a.source = k.source and a.source_id = k.source_id`;
    const sql = [
      `with page_keys as (select * from (${keyParts.join(' union all ')}) as merged order by occurred_at desc, source asc, source_id desc limit ${filter.pageSize} offset ${offset})`,
      [annotationPart, ...detailParts, ...countParts].join(' union all '),
    ].join(' ');
    const rows: Row[] = await this.em.getConnection().execute(sql, [...keyParams, ...countParams]);

    const items: TimelineItem[] = [];
    const annotations: AnnotationView[] = [];
    for (const row of rows) {
      if (row.row_kind === 'count') counts[row.source] = Number(row.source_id);
      else if (row.row_kind === 'annotation') annotations.push(annotationOf(row));
      else items.push(this.toItem(row));
    }
    items.sort((a, b) => (a.occurredAt !== b.occurredAt ? (a.occurredAt < b.occurredAt ? 1 : -1) : a.source !== b.source ? (a.source < b.source ? -1 : 1) : sourceIdOf(b) - sourceIdOf(a)));
    annotations.sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? -1 : 1) : a.id - b.id));
    const byEvent = new Map(items.map((i) => [i.id, i]));
    for (const annotation of annotations) byEvent.get(annotation.eventId)?.annotations.push(annotation);
    const totalRecords = Object.values(counts).reduce((a, b) => a + b, 0);
    const totalPages = Math.ceil(totalRecords / filter.pageSize);
    return { items, counts, page: filter.page, pageSize: filter.pageSize, totalRecords, totalPages, hasNext: filter.page < totalPages };
  }

  private toItem(row: Row): TimelineItem {
    const source = row.source;
    const sourceId = Number(row.source_id);
    const status = normalizeStatus(source, row.raw_status ?? '');
    const linkId = row.link_id === null ? null : Number(row.link_id);
    const api =
      source === 'sync'
        ? linkId === null
          ? null
          : `/api/v1/sync/previews/${linkId}`
        : source === 'canary'
          ? `/api/v1/canary/rollouts/${sourceId}`
          : source === 'snapshot'
            ? `/api/v1/databases/${linkId}/snapshots/${sourceId}`
            : `/api/v1/databases/${linkId}/rollbacks/${sourceId}`;
    const workflowId = row.workflow_id;
    return {
      id: `${source}:${sourceId}`,
      source,
      occurredAt: isoTime(row.occurred_at),
      subtype: row.subtype ?? '',
      status,
      badge: BADGES[status],
      scope: { kind: SCOPE_OF[source], id: row.scope_id === null ? null : Number(row.scope_id), label: row.scope_label ?? '', arrType: row.arr_type },
      link: {
        api,
        workflowId,
        workflowUrl: workflowId && this.links.temporalUiUrl ? `${this.links.temporalUiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(this.links.namespace)}/workflows/${encodeURIComponent(workflowId)}` : null,
      },
      reason: row.reason ?? null,
      annotations: [],
    };
  }
}

function sourceIdOf(item: TimelineItem): number {
  return Number(item.id.slice(item.id.indexOf(':') + 1));
}

/** Annotation rows carry the annotation's id in scope_id, its body in scope_label and createdAt in occurred_at. */
function annotationOf(row: Row): AnnotationView {
  return {
    id: Number(row.scope_id),
    eventId: `${row.source}:${Number(row.source_id)}`,
    source: row.source,
    body: row.scope_label ?? '',
    createdAt: isoTime(row.occurred_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** A timestamp as the drivers return it (PostgreSQL: Date; SQLite: epoch milliseconds). */
function isoTime(value: Date | number | string | null): string {
  return new Date(value as string | number | Date).toISOString();
}

export function toAnnotationView(row: TimelineAnnotation): AnnotationView {
  return { id: row.id, eventId: `${row.source}:${row.sourceId}`, source: row.source, body: row.body, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}
