import { APP_OF, type ArrType } from '../domain/arr-types';
import { AppRequestError, appRequest, type AppHttpTarget } from './http';

export interface SystemStatus {
  appName: string;
  version: string;
}

export interface ArrConnection {
  arrType: ArrType;
  baseUrl: string;
  apiKey: string;
}

/** Typed access to one Radarr, Sonarr or Lidarr instance. */
export class ArrClient {
  protected readonly target: AppHttpTarget;

  constructor(
    readonly arrType: ArrType,
    connection: ArrConnection,
    timeoutMs: number,
  ) {
    this.target = { baseUrl: connection.baseUrl, apiBase: APP_OF[arrType].apiBase, apiKey: connection.apiKey, timeoutMs };
  }

  async systemStatus(): Promise<SystemStatus> {
    const { body } = await appRequest<{ appName?: unknown; version?: unknown }>(this.target, 'GET', '/system/status');
    if (!body || typeof body.appName !== 'string' || typeof body.version !== 'string') {
      throw new AppRequestError('invalidResponse', 200);
    }
    return { appName: body.appName, version: body.version };
  }
}
