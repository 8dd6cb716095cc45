import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { temporalLink, testEvent, type DeliveryAttempt, type DeliveryStatus, type NotificationEventType } from '../../domain/notifications';
import { notFound } from '../../errors';
import { NotificationDelivery } from '../../persistence/entities';
import type { ServiceDeps } from '../deps';
import type { WaitedAnswer } from '../workflow-runner';
import { ChannelService } from './channel-service';
import { linkContext, publishNotification } from './publisher';

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: NotificationEventType;
  channelId: number | null;
  channelName: string;
  channelKind: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  attemptLog: DeliveryAttempt[];
  createdAt: string;
  lastAttemptAt: string | null;
  finishedAt: string | null;
  workflowId: string;
  workflowUrl: string | null;
}

export interface DeliveryFilter {
  channelId?: number;
  status?: DeliveryStatus;
  eventType?: NotificationEventType;
  eventId?: string;
  page: number;
  pageSize: number;
}

type Deps = Pick<ServiceDeps, 'orm' | 'config' | 'temporal' | 'secretBox' | 'logger'> & { temporalUiUrl: string | null };

/** The delivery log and the test send. */
export class DeliveryService {
  static of(deps: Deps): DeliveryService {
    return new DeliveryService(deps);
  }

  constructor(private readonly deps: Deps) {}

  private get em(): EntityManager {
    return this.deps.orm.em;
  }

  async list(filter: DeliveryFilter): Promise<{ items: DeliveryView[]; total: number }> {
    const where: Record<string, unknown> = {};
    if (filter.channelId !== undefined) where.channelId = filter.channelId;
    if (filter.status) where.status = filter.status;
    if (filter.eventType) where.eventType = filter.eventType;
    if (filter.eventId) where.eventId = filter.eventId;
    const [rows, total] = await this.em.findAndCount(NotificationDelivery, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: filter.pageSize,
      offset: (filter.page - 1) * filter.pageSize,
    });
    return { items: rows.map((r) => this.view(r)), total };
  }

  async get(id: string): Promise<DeliveryView> {
    const row = await this.em.findOne(NotificationDelivery, { id });
    if (!row) throw notFound(`Delivery ${id} not found`);
    return this.view(row);
  }

  /**
   * Sends a test event to one channel (enabled or not), and waits at most `waitMs` for the first
   * attempt's outcome to be recorded (delivered, refused, or retrying with the receiver's code);
   * retries with backoff go on in the delivery workflow either way.
   */
  async sendTest(channelId: number, waitMs: number): Promise<WaitedAnswer<DeliveryView>> {
    const channel = await ChannelService.of(this.deps).load(channelId);
    const ctx = linkContext(this.deps.config, this.deps.temporalUiUrl);
    const event = testEvent(ctx, { channelId: channel.id, channelName: channel.name, nonce: randomUUID(), at: new Date() });
    const published = await publishNotification({ ...this.deps, em: this.em }, event, `channel:${channel.id}`, { channelId: channel.id });
    const id = published.deliveryIds[0];
    const deadline = Date.now() + waitMs;
    const attempted = (row: NotificationDelivery) => row.attempts > 0 || Boolean(row.finishedAt);
    let row = await this.em.fork().findOneOrFail(NotificationDelivery, { id });
    while (waitMs > 0 && !attempted(row) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      row = await this.em.fork().findOneOrFail(NotificationDelivery, { id });
    }
    return { finished: waitMs > 0 && attempted(row), body: this.view(row) };
  }

  private view(row: NotificationDelivery): DeliveryView {
    return {
      id: row.id,
      eventId: row.eventId,
      eventType: row.eventType,
      channelId: row.channelId,
      channelName: row.channelName,
      channelKind: row.channelKind,
      status: row.status,
      attempts: row.attempts,
      lastStatusCode: row.lastStatusCode,
      lastError: row.lastError,
      attemptLog: row.attemptLog,
      createdAt: row.createdAt.toISOString(),
      lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      workflowId: row.workflowId,
      workflowUrl: temporalLink(linkContext(this.deps.config, this.deps.temporalUiUrl), row.workflowId),
    };
  }
}
