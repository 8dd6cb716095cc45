import type { Config } from '../config';
import type { SecretBox } from '../platform/crypto';
import type { Logger } from '../platform/logger';
import type { TemporalGateway } from '../platform/temporal-client';
import type { Orm } from '../persistence/orm';
import type { EvaluationService } from '../services/evaluation/evaluation-service';
import type { HealthRecomputer } from '../services/config-health/health-snapshots';
import type { PcdCacheManager } from '../services/pcd/cache-manager';

export interface ApiDeps {
  config: Config;
  logger: Logger;
  orm: Orm;
  secretBox: SecretBox;
  temporal: TemporalGateway;
  apiKey: string;
  startedAt: Date;
  version: string;
  pcdCaches: PcdCacheManager;
  /** Temporal Web UI base URL for deep links, when known. */
  temporalUiUrl: string | null;
  healthRecomputer: HealthRecomputer;
  evaluation: EvaluationService;
}
