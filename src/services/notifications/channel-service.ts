import type { EntityManager } from '@mikro-orm/core';
import type { ChannelKind, SubscribableEventType } from '../../domain/notifications';
import { AppError, notFound, validationError } from '../../errors';
import type { SecretBox } from '../../platform/crypto';
import { secretScrubber } from '../../platform/logger';
import { NotificationChannel } from '../../persistence/entities';

export interface ChannelInput {
  name: string;
  kind: ChannelKind;
  url: string;
  secret?: string;
  events: SubscribableEventType[];
  enabled?: boolean;
}

export type ChannelPatch = Partial<Omit<ChannelInput, 'kind'>> & { kind?: ChannelKind };

/** What the API shows of a channel: never its URL or secret (both write-only). */
export interface ChannelView {
  id: number;
  name: string;
  kind: ChannelKind;
  events: SubscribableEventType[];
  enabled: boolean;
  urlSet: boolean;
  secretSet: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The clear URL and secret, for the delivery activity only (registered with the log scrubber). */
export interface ChannelTarget {
  id: number;
  name: string;
  kind: ChannelKind;
  url: string;
  secret: string | null;
}

export class ChannelService {
  static of(deps: { orm: { em: EntityManager }; secretBox: SecretBox }): ChannelService {
    return new ChannelService(deps.orm.em, deps.secretBox);
  }

  constructor(
    private readonly em: EntityManager,
    private readonly secretBox: SecretBox,
  ) {}

  async create(input: ChannelInput): Promise<ChannelView> {
    secretScrubber.add(input.url);
    secretScrubber.add(input.secret);
    checkUrl(input.kind, input.url);
    checkSecret(input.kind, input.secret, true);
    await this.assertNameFree(input.name);
    const channel = this.em.create(NotificationChannel, {
      name: input.name,
      kind: input.kind,
      urlSealed: this.secretBox.encrypt(input.url),
      secretSealed: input.kind === 'webhook' && input.secret ? this.secretBox.encrypt(input.secret) : null,
      events: [...new Set(input.events)],
      enabled: input.enabled ?? true,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await this.em.flush();
    return toChannelView(channel);
  }

  async list(page: number, pageSize: number): Promise<{ items: ChannelView[]; total: number }> {
    const [rows, total] = await this.em.findAndCount(NotificationChannel, {}, { orderBy: { id: 'asc' }, limit: pageSize, offset: (page - 1) * pageSize });
    return { items: rows.map(toChannelView), total };
  }

  async get(id: number): Promise<ChannelView> {
    return toChannelView(await this.load(id));
  }

  async load(id: number): Promise<NotificationChannel> {
    const channel = await this.em.findOne(NotificationChannel, { id });
    if (!channel) throw notFound(`Notification channel ${id} not found`);
    return channel;
  }

  async update(id: number, patch: ChannelPatch): Promise<ChannelView> {
    const channel = await this.load(id);
    secretScrubber.add(patch.url);
    secretScrubber.add(patch.secret);
    if (patch.kind !== undefined && patch.kind !== channel.kind) throw validationError('kind: a channel keeps its kind; create a new channel instead');
    if (patch.name !== undefined && patch.name !== channel.name) {
      await this.assertNameFree(patch.name);
      channel.name = patch.name;
    }
    if (patch.url !== undefined) {
      checkUrl(channel.kind, patch.url);
      channel.urlSealed = this.secretBox.encrypt(patch.url);
    }
    if (patch.secret !== undefined) {
      checkSecret(channel.kind, patch.secret, false);
      channel.secretSealed = this.secretBox.encrypt(patch.secret);
    }
    if (patch.events !== undefined) channel.events = [...new Set(patch.events)];
    if (patch.enabled !== undefined) channel.enabled = patch.enabled;
    channel.updatedAt = new Date();
    await this.em.flush();
    return toChannelView(channel);
  }

  /** Deletes the channel; its deliveries stay in the log under the channel's name. */
  async delete(id: number): Promise<void> {
    const channel = await this.load(id);
    this.em.remove(channel);
    await this.em.flush();
  }

  /** Decrypts URL and secret for a delivery; both are registered with the log scrubber first. */
  target(channel: NotificationChannel): ChannelTarget {
    try {
      const url = this.secretBox.decrypt(channel.urlSealed);
      const secret = channel.secretSealed ? this.secretBox.decrypt(channel.secretSealed) : null;
      secretScrubber.add(url);
      secretScrubber.add(secret);
      return { id: channel.id, name: channel.name, kind: channel.kind, url, secret };
    } catch {
      throw new AppError('internal', `The stored URL or secret of notification channel ${channel.id} cannot be decrypted; set them again`);
    }
  }

  private async assertNameFree(name: string): Promise<void> {
    if (await this.em.count(NotificationChannel, { name })) throw validationError(`name: a notification channel named "${name}" already exists`);
  }
}

export function toChannelView(channel: NotificationChannel): ChannelView {
  return {
    id: channel.id,
    name: channel.name,
    kind: channel.kind,
    events: channel.events as SubscribableEventType[],
    enabled: channel.enabled,
    urlSet: Boolean(channel.urlSealed),
    secretSet: Boolean(channel.secretSealed),
    createdAt: channel.createdAt.toISOString(),
    updatedAt: channel.updatedAt.toISOString(),
  };
}

function checkUrl(kind: ChannelKind, url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw validationError('url: must be an absolute http:// or https:// URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw validationError('url: must be an absolute http:// or https:// URL');
  if (parsed.username || parsed.password) throw validationError('url: must not carry credentials (webhook channels sign with their secret)');
  if (kind === 'discord' && !/\/api\/webhooks\/[^/]+\/[^/]+/.test(parsed.pathname)) {
    throw validationError('url: a Discord channel takes a Discord webhook URL (…/api/webhooks/<id>/<token>)');
  }
}

function checkSecret(kind: ChannelKind, secret: string | undefined, creating: boolean): void {
  if (kind === 'discord' && secret !== undefined) throw validationError('secret: only webhook channels are signed; a Discord channel takes no secret');
  if (kind === 'webhook' && creating && secret === undefined) throw validationError('secret: required for a webhook channel (16 to 256 characters; it signs every request with HMAC-SHA256)');
}
