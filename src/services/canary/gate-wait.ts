import type { EntityManager } from '@mikro-orm/core';
import { NotificationEvent, type CanaryRollout } from '../../persistence/entities';

/**
 * When each rollout waiting at the gate got there: its gate event, or its last update when it
 * reached the gate before notifications existed. Keyed by rollout id.
 */
export async function gateReachedAt(em: EntityManager, waiting: Pick<CanaryRollout, 'id' | 'updatedAt'>[]): Promise<Map<number, Date>> {
  if (!waiting.length) return new Map();
  const eventId = (id: number) => `rollout:${id}:gate`;
  const events = await em.find(NotificationEvent, { id: { $in: waiting.map((r) => eventId(r.id)) } }, { fields: ['id', 'occurredAt'] });
  const occurred = new Map(events.map((e) => [e.id, e.occurredAt]));
  return new Map(waiting.map((r) => [r.id, occurred.get(eventId(r.id)) ?? r.updatedAt]));
}
