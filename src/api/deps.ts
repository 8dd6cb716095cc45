import type { ApiKeyStore } from '../platform/secrets';
import type { AuthService } from '../services/auth/auth-service';
import type { EvaluationService } from '../services/evaluation/evaluation-service';
import type { HealthRecomputer } from '../services/config-health/health-snapshots';
import type { ServiceDeps } from '../services/deps';

/** What the API hands its routes: the services' dependencies plus the API's own. */
export interface ApiDeps extends ServiceDeps {
  /** The service API key (regenerable: always read the current one). */
  apiKeys: ApiKeyStore;
  /** Console sign-in and sessions. */
  auth: AuthService;
  startedAt: Date;
  version: string;
  /** Temporal Web UI base URL for deep links, when known. */
  temporalUiUrl: string | null;
  healthRecomputer: HealthRecomputer;
  evaluation: EvaluationService;
}
