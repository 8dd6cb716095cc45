import type { Config } from '../config';
import type { SecretBox } from '../platform/crypto';
import type { Logger } from '../platform/logger';
import type { Orm } from '../persistence/orm';
import type { OutboxKick } from '../services/outbox/outbox-store';
import type { PcdCacheManager } from '../services/pcd/cache-manager';

/** What activities need from the process; built once per worker. */
export interface ActivityDeps {
  config: Config;
  orm: Orm;
  secretBox: SecretBox;
  logger: Logger;
  /** Shared with the API in the all-in-one process. */
  pcdCaches: PcdCacheManager;
  /** This process's outbox relay, kicked after rows are written (absent in tests of single activities: the rows wait for a relay). */
  outbox?: OutboxKick;
  /** Temporal Web UI base URL for notification deep links, when known. */
  temporalUiUrl?: string | null;
}
