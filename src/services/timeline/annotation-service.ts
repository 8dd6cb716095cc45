import type { EntityManager } from '@mikro-orm/core';
import { TIMELINE_SOURCES, type TimelineSource } from '../../domain/timeline/rules';
import { notFound, validationError } from '../../errors';
import { CanaryRollout, PcdRollback, PcdSnapshot, SyncRun, TimelineAnnotation } from '../../persistence/entities';
import { toAnnotationView, type AnnotationView } from './timeline-service';

export const ANNOTATION_MAX_LENGTH = 4000;
const EVENT_ID = /^(canary|rollback|snapshot|sync):([1-9]\d{0,14})$/;

export function parseEventId(eventId: string): { source: TimelineSource; sourceId: number } {
  const match = EVENT_ID.exec(eventId);
  if (!match) throw validationError(`Invalid request: body.eventId must be <source>:<id> with source one of ${TIMELINE_SOURCES.join(', ')}`);
  return { source: match[1] as TimelineSource, sourceId: Number(match[2]) };
}

/** User notes on timeline events: the only persisted timeline state. */
export class AnnotationService {
  constructor(private readonly em: EntityManager) {}

  async create(eventId: string, body: string): Promise<AnnotationView> {
    const { source, sourceId } = parseEventId(eventId);
    if (!(await this.eventExists(source, sourceId))) throw notFound(`Timeline event ${eventId} not found`);
    const row = this.em.create(TimelineAnnotation, { source, sourceId, body, createdAt: new Date(), updatedAt: new Date() });
    await this.em.flush();
    return toAnnotationView(row);
  }

  async update(id: number, body: string): Promise<AnnotationView> {
    const row = await this.load(id);
    row.body = body;
    row.updatedAt = new Date();
    await this.em.flush();
    return toAnnotationView(row);
  }

  async delete(id: number): Promise<void> {
    await this.em.remove(await this.load(id)).flush();
  }

  private async load(id: number): Promise<TimelineAnnotation> {
    const row = await this.em.findOne(TimelineAnnotation, { id });
    if (!row) throw notFound(`Annotation ${id} not found`);
    return row;
  }

  private async eventExists(source: TimelineSource, id: number): Promise<boolean> {
    const entity = { sync: SyncRun, canary: CanaryRollout, snapshot: PcdSnapshot, rollback: PcdRollback }[source];
    return (await this.em.count(entity as typeof SyncRun, { id })) > 0;
  }
}
