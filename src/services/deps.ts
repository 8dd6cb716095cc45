import type { Config } from '../config';
import type { SecretBox } from '../platform/crypto';
import type { Logger } from '../platform/logger';
import type { TemporalGateway } from '../platform/temporal-client';
import type { Orm } from '../persistence/orm';
import type { OutboxKick } from './outbox/outbox-store';
import type { PcdCacheManager } from './pcd/cache-manager';

/** What the use cases of every feature run on; the composition root builds it once per process. */
export interface ServiceDeps {
  config: Config;
  logger: Logger;
  orm: Orm;
  secretBox: SecretBox;
  temporal: TemporalGateway;
  pcdCaches: PcdCacheManager;
  /** This process's outbox relay, kicked after a write that queued effects (absent: they wait for the next poll). */
  outbox?: OutboxKick;
}
