import type { Config } from '../config';
import type { SecretBox } from '../platform/crypto';
import type { Logger } from '../platform/logger';
import type { TemporalGateway } from '../platform/temporal-client';
import type { Orm } from '../persistence/orm';
import type { PcdCacheManager } from './pcd/cache-manager';

/** What the use cases of every feature run on; the composition root builds it once per process. */
export interface ServiceDeps {
  config: Config;
  logger: Logger;
  orm: Orm;
  secretBox: SecretBox;
  temporal: TemporalGateway;
  pcdCaches: PcdCacheManager;
}
