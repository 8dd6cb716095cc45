import type { Config } from '../config';
import type { SecretBox } from '../platform/crypto';
import type { Logger } from '../platform/logger';
import type { Orm } from '../persistence/orm';

/** What activities need from the process; built once per worker. */
export interface ActivityDeps {
  config: Config;
  orm: Orm;
  secretBox: SecretBox;
  logger: Logger;
}
