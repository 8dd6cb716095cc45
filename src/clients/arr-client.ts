import { APP_OF, type ArrType } from '../domain/arr-types';
import { AppRequestError, appRequest, type AppHttpTarget } from './http';
import { project, SHAPES, type AppShapes } from './shapes';
import type {
  AnyAppPayloads,
  AppPayloads,
  CustomFormatPayload,
  CustomFormatResource,
  CustomFormatSpecificationSchema,
  DelayProfilePayload,
  DelayProfileResource,
  LanguageResource,
  LidarrPayloads,
  MetadataProfilePayload,
  MetadataProfileResource,
  QualityDefinitionLimitsResource,
  QualityDefinitionPayload,
  QualityDefinitionResource,
  RadarrPayloads,
  SonarrPayloads,
  SystemResource,
  TagPayload,
  TagResource,
} from '../domain/app-resources';

export interface SystemStatus {
  appName: string;
  version: string;
}

export interface ArrConnection {
  arrType: ArrType;
  baseUrl: string;
  apiKey: string;
}

type WithId<T> = T & { id: number };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isEntity(value: unknown): value is { id: number } {
  return isObject(value) && typeof value.id === 'number';
}

/**
 * Typed access to one Radarr, Sonarr or Lidarr instance. Every failure is an AppRequestError carrying
 * only a failure code and the HTTP status; URLs, hosts, keys and response bodies stay inside.
 * Payloads are projected onto the properties the app's API declares before they are sent.
 *
 * `new ArrClient(arrType, connection, timeoutMs)` works for any app; RadarrClient, SonarrClient and
 * LidarrClient narrow the payload types (and add the app-specific endpoints).
 */
export class ArrClient<P extends AppPayloads = AnyAppPayloads> {
  protected readonly target: AppHttpTarget;
  protected readonly shapes: AppShapes;

  constructor(
    readonly arrType: ArrType,
    connection: ArrConnection,
    timeoutMs: number,
  ) {
    this.target = { baseUrl: connection.baseUrl, apiBase: APP_OF[arrType].apiBase, apiKey: connection.apiKey, timeoutMs };
    this.shapes = SHAPES[arrType];
  }

  // ---- transport helpers: every response is checked for the shape the caller relies on ----

  protected async getList<T>(path: string): Promise<T[]> {
    const { status, body } = await appRequest<unknown>(this.target, 'GET', path);
    if (!Array.isArray(body) || !body.every(isObject)) throw new AppRequestError('invalidResponse', status);
    return body as T[];
  }

  protected async getEntityList<T>(path: string): Promise<T[]> {
    const { status, body } = await appRequest<unknown>(this.target, 'GET', path);
    if (!Array.isArray(body) || !body.every(isEntity)) throw new AppRequestError('invalidResponse', status);
    return body as T[];
  }

  protected async getObject<T>(path: string): Promise<T> {
    const { status, body } = await appRequest<unknown>(this.target, 'GET', path);
    if (!isObject(body)) throw new AppRequestError('invalidResponse', status);
    return body as T;
  }

  protected async getEntity<T>(path: string): Promise<T> {
    const { status, body } = await appRequest<unknown>(this.target, 'GET', path);
    if (!isEntity(body)) throw new AppRequestError('invalidResponse', status);
    return body as T;
  }

  protected async send<T>(method: 'POST' | 'PUT', path: string, payload: unknown): Promise<T> {
    const { status, body } = await appRequest<unknown>(this.target, method, path, payload);
    if (!isEntity(body)) throw new AppRequestError('invalidResponse', status);
    return body as T;
  }

  protected async remove(path: string): Promise<void> {
    await appRequest<unknown>(this.target, 'DELETE', path);
  }

  protected static id(id: number): string {
    if (!Number.isInteger(id)) throw new TypeError('an entity id must be an integer');
    return String(id);
  }

  // ---- system ----

  /** GET /system/status: the app's name and version. */
  async systemStatus(): Promise<SystemStatus> {
    const body = await this.getObject<{ appName?: unknown; version?: unknown }>('/system/status');
    if (typeof body.appName !== 'string' || typeof body.version !== 'string') {
      throw new AppRequestError('invalidResponse', 200);
    }
    return { appName: body.appName, version: body.version };
  }

  /**
   * GET /system/status to learn which app answers at the base URL. When this family's API path is
   * not found there, the other API versions' paths are asked too (Lidarr answers under /api/v1,
   * Radarr and Sonarr under /api/v3), so an app of another family still says what it is; when none
   * answers, the first failure stands.
   */
  async identify(): Promise<SystemStatus> {
    try {
      return await this.systemStatus();
    } catch (error) {
      if (!(error instanceof AppRequestError) || error.failure !== 'notFound') throw error;
      const otherBases = [...new Set(Object.values(APP_OF).map((app) => app.apiBase))].filter((base) => base !== this.target.apiBase);
      for (const apiBase of otherBases) {
        const { body } = await appRequest<unknown>({ ...this.target, apiBase }, 'GET', '/system/status').catch(() => ({ body: null }));
        if (isObject(body) && typeof body.appName === 'string' && typeof body.version === 'string') return { appName: body.appName, version: body.version };
      }
      throw error;
    }
  }

  /** GET /system/status: the whole resource. */
  async systemResource(): Promise<SystemResource> {
    const body = await this.getObject<SystemResource>('/system/status');
    if (typeof body.appName !== 'string' || typeof body.version !== 'string') throw new AppRequestError('invalidResponse', 200);
    return body;
  }

  /** GET /language */
  listLanguages(): Promise<LanguageResource[]> {
    return this.getList<LanguageResource>('/language');
  }

  // ---- tags ----

  listTags(): Promise<TagResource[]> {
    return this.getEntityList<TagResource>('/tag');
  }

  getTag(id: number): Promise<TagResource> {
    return this.getEntity<TagResource>(`/tag/${ArrClient.id(id)}`);
  }

  /** POST /tag. An existing label comes back as the existing tag; labels are stored lowercase. */
  createTag(tag: TagPayload | string): Promise<TagResource> {
    const payload = typeof tag === 'string' ? { label: tag } : tag;
    return this.send<TagResource>('POST', '/tag', project(this.shapes.tag, payload));
  }

  updateTag(tag: WithId<TagPayload>): Promise<TagResource> {
    return this.send<TagResource>('PUT', `/tag/${ArrClient.id(tag.id)}`, project(this.shapes.tag, tag));
  }

  deleteTag(id: number): Promise<void> {
    return this.remove(`/tag/${ArrClient.id(id)}`);
  }

  // ---- custom formats ----

  listCustomFormats(): Promise<CustomFormatResource[]> {
    return this.getEntityList<CustomFormatResource>('/customformat');
  }

  getCustomFormat(id: number): Promise<CustomFormatResource> {
    return this.getEntity<CustomFormatResource>(`/customformat/${ArrClient.id(id)}`);
  }

  /** POST /customformat (the payload must not carry an id). */
  createCustomFormat(format: CustomFormatPayload): Promise<CustomFormatResource> {
    return this.send<CustomFormatResource>('POST', '/customformat', project(this.shapes.customFormat, format));
  }

  /** PUT /customformat/{id} */
  updateCustomFormat(format: WithId<CustomFormatPayload>): Promise<CustomFormatResource> {
    return this.send<CustomFormatResource>('PUT', `/customformat/${ArrClient.id(format.id)}`, project(this.shapes.customFormat, format));
  }

  /** DELETE /customformat/{id}; the app also removes the format from every quality profile. */
  deleteCustomFormat(id: number): Promise<void> {
    return this.remove(`/customformat/${ArrClient.id(id)}`);
  }

  /** GET /customformat/schema: the specification implementations the app knows, with presets. */
  customFormatSchema(): Promise<CustomFormatSpecificationSchema[]> {
    return this.getList<CustomFormatSpecificationSchema>('/customformat/schema');
  }

  // ---- quality profiles ----

  listQualityProfiles(): Promise<P['qualityProfile'][]> {
    return this.getEntityList<P['qualityProfile']>('/qualityprofile');
  }

  getQualityProfile(id: number): Promise<P['qualityProfile']> {
    return this.getEntity<P['qualityProfile']>(`/qualityprofile/${ArrClient.id(id)}`);
  }

  /** POST /qualityprofile: items must list every quality once and formatItems every custom format. */
  createQualityProfile(profile: P['qualityProfilePayload']): Promise<P['qualityProfile']> {
    return this.send<P['qualityProfile']>('POST', '/qualityprofile', project(this.shapes.qualityProfile, profile));
  }

  updateQualityProfile(profile: WithId<P['qualityProfilePayload']>): Promise<P['qualityProfile']> {
    return this.send<P['qualityProfile']>('PUT', `/qualityprofile/${ArrClient.id(profile.id)}`, project(this.shapes.qualityProfile, profile));
  }

  deleteQualityProfile(id: number): Promise<void> {
    return this.remove(`/qualityprofile/${ArrClient.id(id)}`);
  }

  /** GET /qualityprofile/schema: a new profile as the app would build it (every quality, every format). */
  async qualityProfileSchema(): Promise<Omit<P['qualityProfile'], 'id'>> {
    return this.getObject<Omit<P['qualityProfile'], 'id'>>('/qualityprofile/schema');
  }

  // ---- quality definitions ----

  listQualityDefinitions(): Promise<QualityDefinitionResource<P['quality']>[]> {
    return this.getEntityList<QualityDefinitionResource<P['quality']>>('/qualitydefinition');
  }

  getQualityDefinition(id: number): Promise<QualityDefinitionResource<P['quality']>> {
    return this.getEntity<QualityDefinitionResource<P['quality']>>(`/qualitydefinition/${ArrClient.id(id)}`);
  }

  updateQualityDefinition(definition: QualityDefinitionPayload<P['quality']>): Promise<QualityDefinitionResource<P['quality']>> {
    return this.send<QualityDefinitionResource<P['quality']>>('PUT', `/qualitydefinition/${ArrClient.id(definition.id)}`, project(this.shapes.qualityDefinition, definition));
  }

  /** PUT /qualitydefinition/update: several definitions in one request; returns all definitions. */
  async updateQualityDefinitions(definitions: QualityDefinitionPayload<P['quality']>[]): Promise<QualityDefinitionResource<P['quality']>[]> {
    const payload = definitions.map((definition) => project(this.shapes.qualityDefinition, definition));
    const { status, body } = await appRequest<unknown>(this.target, 'PUT', '/qualitydefinition/update', payload);
    if (!Array.isArray(body) || !body.every(isEntity)) throw new AppRequestError('invalidResponse', status);
    return body as QualityDefinitionResource<P['quality']>[];
  }

  // ---- delay profiles ----

  listDelayProfiles(): Promise<DelayProfileResource[]> {
    return this.getEntityList<DelayProfileResource>('/delayprofile');
  }

  getDelayProfile(id: number): Promise<DelayProfileResource> {
    return this.getEntity<DelayProfileResource>(`/delayprofile/${ArrClient.id(id)}`);
  }

  /** POST /delayprofile: needs tags (only the global profile, id 1, has none). */
  createDelayProfile(profile: DelayProfilePayload): Promise<DelayProfileResource> {
    return this.send<DelayProfileResource>('POST', '/delayprofile', project(this.shapes.delayProfile, profile));
  }

  /** PUT /delayprofile/{id}. Send the profile's current `order` (the app stores what it receives). */
  updateDelayProfile(profile: WithId<DelayProfilePayload>): Promise<DelayProfileResource> {
    return this.send<DelayProfileResource>('PUT', `/delayprofile/${ArrClient.id(profile.id)}`, project(this.shapes.delayProfile, profile));
  }

  /** DELETE /delayprofile/{id}; the global profile (id 1) cannot be deleted (405). */
  deleteDelayProfile(id: number): Promise<void> {
    return this.remove(`/delayprofile/${ArrClient.id(id)}`);
  }

  // ---- naming and media management ----

  getNamingConfig(): Promise<P['naming']> {
    return this.getEntity<P['naming']>('/config/naming');
  }

  updateNamingConfig(naming: P['naming']): Promise<P['naming']> {
    return this.send<P['naming']>('PUT', `/config/naming/${ArrClient.id(naming.id)}`, project(this.shapes.naming, naming));
  }

  getMediaManagementConfig(): Promise<P['mediaManagement']> {
    return this.getEntity<P['mediaManagement']>('/config/mediamanagement');
  }

  updateMediaManagementConfig(config: P['mediaManagement']): Promise<P['mediaManagement']> {
    return this.send<P['mediaManagement']>('PUT', `/config/mediamanagement/${ArrClient.id(config.id)}`, project(this.shapes.mediaManagement, config));
  }
}

function connectionFor(arrType: ArrType, connection: Omit<ArrConnection, 'arrType'>): ArrConnection {
  return { arrType, baseUrl: connection.baseUrl, apiKey: connection.apiKey };
}

/** Radarr (/api/v3). */
export class RadarrClient extends ArrClient<RadarrPayloads> {
  constructor(connection: Omit<ArrConnection, 'arrType'>, timeoutMs: number) {
    super('movie_app', connectionFor('movie_app', connection), timeoutMs);
  }

  /** GET /qualitydefinition/limits (MB per minute). */
  qualityDefinitionLimits(): Promise<QualityDefinitionLimitsResource> {
    return this.getObject<QualityDefinitionLimitsResource>('/qualitydefinition/limits');
  }
}

/** Sonarr (/api/v3). */
export class SonarrClient extends ArrClient<SonarrPayloads> {
  constructor(connection: Omit<ArrConnection, 'arrType'>, timeoutMs: number) {
    super('series_app', connectionFor('series_app', connection), timeoutMs);
  }

  qualityDefinitionLimits(): Promise<QualityDefinitionLimitsResource> {
    return this.getObject<QualityDefinitionLimitsResource>('/qualitydefinition/limits');
  }
}

/** Lidarr (/api/v1), with metadata profiles. */
export class LidarrClient extends ArrClient<LidarrPayloads> {
  constructor(connection: Omit<ArrConnection, 'arrType'>, timeoutMs: number) {
    super('music_app', connectionFor('music_app', connection), timeoutMs);
  }

  listMetadataProfiles(): Promise<MetadataProfileResource[]> {
    return this.getEntityList<MetadataProfileResource>('/metadataprofile');
  }

  getMetadataProfile(id: number): Promise<MetadataProfileResource> {
    return this.getEntity<MetadataProfileResource>(`/metadataprofile/${ArrClient.id(id)}`);
  }

  /** POST /metadataprofile; the name "None" is reserved. */
  createMetadataProfile(profile: MetadataProfilePayload): Promise<MetadataProfileResource> {
    return this.send<MetadataProfileResource>('POST', '/metadataprofile', project(this.shapes.metadataProfile!, profile));
  }

  updateMetadataProfile(profile: WithId<MetadataProfilePayload>): Promise<MetadataProfileResource> {
    return this.send<MetadataProfileResource>('PUT', `/metadataprofile/${ArrClient.id(profile.id)}`, project(this.shapes.metadataProfile!, profile));
  }

  deleteMetadataProfile(id: number): Promise<void> {
    return this.remove(`/metadataprofile/${ArrClient.id(id)}`);
  }

  /** GET /metadataprofile/schema: every type, none allowed. */
  metadataProfileSchema(): Promise<Omit<MetadataProfileResource, 'id' | 'name'>> {
    return this.getObject<Omit<MetadataProfileResource, 'id' | 'name'>>('/metadataprofile/schema');
  }
}

export type AnyArrClient = RadarrClient | SonarrClient | LidarrClient;

/** The typed client of the app a connection points at. */
export function createArrClient(connection: ArrConnection, timeoutMs: number): AnyArrClient {
  switch (connection.arrType) {
    case 'movie_app':
      return new RadarrClient(connection, timeoutMs);
    case 'series_app':
      return new SonarrClient(connection, timeoutMs);
    case 'music_app':
      return new LidarrClient(connection, timeoutMs);
  }
}
