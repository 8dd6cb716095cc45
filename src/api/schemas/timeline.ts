import { BADGES, SCOPE_KINDS, STATUS_MAP, TIMELINE_SOURCES, TIMELINE_STATUSES } from '../../domain/timeline/rules';
import { text, z } from '../http/zod';

const mappingRows = (Object.entries(STATUS_MAP) as [string, Record<string, string>][])
  .flatMap(([source, map]) => Object.entries(map).map(([raw, normalized]) => `| ${source} | ${raw} | ${normalized} | ${BADGES[normalized as keyof typeof BADGES]} |`))
  .join('\n');

export const TIMELINE_STATUS_TABLE = `| source | source status | status | badge |\n|---|---|---|---|\n${mappingRows}`;

export const TimelineSourceSchema = z.enum(TIMELINE_SOURCES).openapi('TimelineSource');
export const TimelineStatusSchema = z.enum(TIMELINE_STATUSES).openapi('TimelineStatus', {
  description: `Normalized cross-source status. Mapping from each source's own status, with the badge (colour variant):\n\n${TIMELINE_STATUS_TABLE}`,
});

export const AnnotationSchema = z
  .object({
    id: z.number().int(),
    eventId: z.string().openapi({ example: 'sync:42' }),
    source: TimelineSourceSchema,
    body: z.string(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi('TimelineAnnotation');

export const TimelineItemSchema = z
  .object({
    id: z.string().openapi({ description: '<source>:<sourceId>', example: 'rollback:3' }),
    source: TimelineSourceSchema,
    occurredAt: z.string().datetime().openapi({ description: 'UTC. sync: startedAt; canary: createdAt; snapshot: createdAt; rollback: startedAt' }),
    subtype: z.string().openapi({ description: 'The trigger. sync: manual, canary, schedule; canary: manual; snapshot: pull, import, edit, revert, goal, manual, rollback; rollback: manual, undo (the undo of an earlier rollback)' }),
    status: TimelineStatusSchema,
    badge: z.enum(['success', 'warning', 'danger', 'info', 'neutral']),
    scope: z.object({
      kind: z.enum(SCOPE_KINDS).openapi({ description: 'arr-instance (sync: the instance; canary: the canary instance) or pcd-database (snapshot, rollback)' }),
      id: z.number().int().nullable().openapi({ description: 'null once the instance or database was deleted' }),
      label: z.string().openapi({ description: 'The instance or database name, retained after deletion' }),
      arrType: z.string().nullable(),
    }),
    link: z.object({
      api: z.string().nullable().openapi({ description: 'API path of the resource behind the event (sync: its preview; null for a run without one)' }),
      workflowId: z.string().nullable(),
      workflowUrl: z.string().nullable().openapi({ description: 'Temporal Web UI URL of the workflow (TEMPORAL_UI_URL, or the embedded dev server UI); null when unknown or when the event has no workflow (snapshots)' }),
    }),
    reason: z
      .string()
      .nullable()
      .openapi({
        description:
          'Why the event ended as it did, in words (pre-authored, searched by q): canary, the rollout\'s statusReason when it ended aborted or failed; sync, the failed or partial run\'s error; rollback, the failed rollback\'s error; null otherwise (snapshots, successes, events still running)',
      }),
    annotations: z.array(AnnotationSchema),
  })
  .openapi('TimelineItem');

export const TimelinePageSchema = z
  .object({
    items: z.array(TimelineItemSchema),
    counts: z.object({ canary: z.number().int(), rollback: z.number().int(), snapshot: z.number().int(), sync: z.number().int() }).openapi({ description: 'Events per source over the same filtered set' }),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalRecords: z.number().int(),
    totalPages: z.number().int(),
    hasNext: z.boolean(),
  })
  .openapi('TimelinePage');

const body = text({ min: 1, max: 4000, multiline: true }).openapi({ description: 'At most 4,000 characters' });
export const AnnotationCreateSchema = z.object({ eventId: text({ min: 3, max: 40 }).openapi({ description: '<source>:<sourceId> of a timeline event', example: 'sync:42' }), body }).strict().openapi('TimelineAnnotationCreate');
export const AnnotationPatchSchema = z.object({ body }).strict().openapi('TimelineAnnotationPatch');
