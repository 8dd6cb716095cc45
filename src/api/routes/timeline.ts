import { SCOPE_KINDS, TIMELINE_SOURCES, type TimelineSource } from '../../domain/timeline/rules';
import { validationError } from '../../errors';
import { AnnotationService } from '../../services/timeline/annotation-service';
import { TimelineService } from '../../services/timeline/timeline-service';
import type { ApiDeps } from '../deps';
import { paginationQuery } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { idParam, text, z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';
import { AnnotationCreateSchema, AnnotationPatchSchema, AnnotationSchema, TimelinePageSchema, TimelineStatusSchema } from '../schemas/timeline';

const tags = ['Timeline'];
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** What the OpenAPI document shows for from/to: a date, or a date-time with an offset. */
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([Tt][0-9:.]+([Zz]|[+-]\\d{2}:?\\d{2}))?$';

/** ISO 8601 date-time, or a date (UTC day: from its start, to its end). */
const bound = (edge: 'from' | 'to') =>
  text({ max: 40 })
    .refine((v) => DATE_ONLY.test(v) || z.string().datetime({ offset: true }).safeParse(v).success, 'must be an ISO 8601 date-time or a date (YYYY-MM-DD)')
    .transform((v) => (DATE_ONLY.test(v) ? new Date(edge === 'from' ? `${v}T00:00:00.000Z` : `${v}T23:59:59.999Z`) : new Date(v)))
    .refine((d) => !Number.isNaN(d.getTime()), 'must be a valid date');

const sourceList = text({ max: 60 })
  .transform((v) => v.split(',').map((s) => s.trim()))
  .refine((list) => list.length > 0 && list.every((s) => (TIMELINE_SOURCES as readonly string[]).includes(s)), `must be a comma-separated subset of ${TIMELINE_SOURCES.join(', ')}`)
  .transform((list) => [...new Set(list)] as TimelineSource[]);

export function registerTimelineRoutes(router: ApiRouter, deps: ApiDeps): void {
  const timeline = () => TimelineService.of(deps);
  const annotations = () => AnnotationService.of(deps);

  router.add({
    method: 'get',
    path: '/timeline',
    operationId: 'getTimeline',
    summary: 'Merged feed of sync, canary, snapshot and rollback events, newest first, with annotations inline',
    description: [
      'Filter rules (AND, fail-closed): 1. no scope filter: all four sources; 2. instanceId or arrType: sync and canary only; 3. databaseId: snapshot and rollback only; 4. source intersects the included set (an empty intersection is an empty page); 5. status, from, to and q apply inside every included branch; 6. a scopeKind that contradicts a supplied id, and instanceId/arrType combined with databaseId, are 400.',
      'Ordering: occurredAt descending, source ascending, id descending. counts are per source over the same filtered set.',
      'instanceId on canary events matches the rollout canary instance. q searches the scope label, the error or warning text, a rollout\'s status reason (why it ended aborted or failed), the snapshot note, and annotation text (case-insensitive). Each item\'s reason says why the event ended as it did.',
    ].join('\n\n'),
    tags,
    query: z
      .object({
        source: sourceList.optional().openapi({ type: 'string', maxLength: 60, pattern: `^(${TIMELINE_SOURCES.join('|')})(,(${TIMELINE_SOURCES.join('|')}))*$`, description: `Comma-separated subset of ${TIMELINE_SOURCES.join(', ')}` }),
        scopeKind: z.enum(SCOPE_KINDS).optional(),
        instanceId: idParam().optional(),
        arrType: ArrTypeSchema.optional(),
        databaseId: idParam().optional(),
        status: TimelineStatusSchema.optional(),
        from: bound('from').optional().openapi({ type: 'string', maxLength: 40, pattern: DATE_PATTERN, description: 'Lower bound on occurredAt (inclusive); a date means the start of that UTC day' }),
        to: bound('to').optional().openapi({ type: 'string', maxLength: 40, pattern: DATE_PATTERN, description: 'Upper bound on occurredAt (inclusive); a date means the end of that UTC day' }),
        q: text({ min: 1, max: 200 }).optional().openapi({ description: 'Free text (at most 200 characters)' }),
        ...paginationQuery,
      })
      .strict(),
    responses: { 200: { description: 'A page of events', schema: TimelinePageSchema } },
    handler: async ({ query }) => {
      if (query.from && query.to && query.from > query.to) throw validationError('Invalid request: query.from must not be after query.to');
      return { body: await timeline().list({ ...query, sources: query.source }) };
    },
  });

  router.add({
    method: 'post',
    path: '/timeline/annotations',
    operationId: 'createTimelineAnnotation',
    summary: 'Annotate a timeline event (annotations are the only persisted timeline state)',
    tags,
    body: AnnotationCreateSchema,
    responses: { 201: { description: 'The annotation', schema: AnnotationSchema }, 404: { description: 'No such event' } },
    handler: async ({ body }) => ({ status: 201, body: await annotations().create(body.eventId, body.body) }),
  });

  router.add({
    method: 'patch',
    path: '/timeline/annotations/{id}',
    operationId: 'updateTimelineAnnotation',
    summary: 'Change the text of an annotation',
    tags,
    params: z.object({ id: idParam() }),
    body: AnnotationPatchSchema,
    responses: { 200: { description: 'The annotation', schema: AnnotationSchema }, 404: { description: 'No such annotation' } },
    handler: async ({ params, body }) => ({ body: await annotations().update(params.id, body.body) }),
  });

  router.add({
    method: 'delete',
    path: '/timeline/annotations/{id}',
    operationId: 'deleteTimelineAnnotation',
    summary: 'Delete an annotation',
    tags,
    params: z.object({ id: idParam() }),
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such annotation' } },
    handler: async ({ params }) => {
      await annotations().delete(params.id);
      return { status: 204 };
    },
  });
}
