/**
 * Wire shapes shared by Radarr (/api/v3), Sonarr (/api/v3) and Lidarr (/api/v1), read from the apps'
 * own OpenAPI documents (components.schemas). Every schema there has `additionalProperties: false`,
 * so a payload must carry no property that is not declared here.
 *
 * Conventions:
 * - `XxxResource` is what the app returns. The apps serialize with "omit when null", so nullable
 *   properties are optional (`?: T | null`) and may simply be absent; RestResource ids of nested items
 *   are omitted when 0.
 * - `XxxPayload` is what a client may send: the resource with `id` optional (absent on create) and
 *   descriptive, server-derived properties optional. A resource read from the app is assignable to
 *   its payload, so read-modify-write works without reshaping.
 */

export type PrivacyLevel = 'normal' | 'password' | 'apiKey' | 'userName';
export type DownloadProtocol = 'unknown' | 'usenet' | 'torrent';
export type ProperDownloadTypes = 'preferAndUpgrade' | 'doNotUpgrade' | 'doNotPrefer';
export type RescanAfterRefreshType = 'always' | 'afterManual' | 'never';

/** SelectOption (dividerAfter: Radarr only). */
export interface SelectOption {
  value: number;
  name?: string | null;
  order: number;
  hint?: string | null;
  dividerAfter?: boolean;
}

/** Field (a provider setting; custom format specifications carry their values in fields). */
export interface Field {
  order: number;
  name: string;
  label?: string | null;
  unit?: string | null;
  helpText?: string | null;
  helpTextWarning?: string | null;
  helpLink?: string | null;
  value?: unknown;
  type: string;
  advanced: boolean;
  selectOptions?: SelectOption[] | null;
  selectOptionsProviderAction?: string | null;
  section?: string | null;
  hidden?: string | null;
  privacy: PrivacyLevel;
  placeholder?: string | null;
  isFloat: boolean;
}

/** A field as sent: only `name` and `value` are read by the apps. */
export type FieldPayload = { name: string; value?: unknown } & Partial<Omit<Field, 'name' | 'value'>>;

/** CustomFormatSpecificationSchema */
export interface CustomFormatSpecificationSchema {
  id?: number;
  name?: string | null;
  implementation: string;
  implementationName: string;
  infoLink?: string | null;
  negate: boolean;
  required: boolean;
  fields: Field[];
  presets?: CustomFormatSpecificationSchema[] | null;
}

export interface CustomFormatSpecificationPayload {
  id?: number;
  /** Required by the apps (non-blank); optional here so a resource read back can be sent as is. */
  name?: string | null;
  implementation: string;
  implementationName?: string | null;
  infoLink?: string | null;
  negate?: boolean;
  required?: boolean;
  fields: FieldPayload[];
  presets?: CustomFormatSpecificationSchema[] | null;
}

/** CustomFormatResource */
export interface CustomFormatResource {
  id: number;
  name: string;
  includeCustomFormatWhenRenaming: boolean;
  specifications: CustomFormatSpecificationSchema[];
}

export interface CustomFormatPayload {
  id?: number;
  name: string;
  includeCustomFormatWhenRenaming?: boolean | null;
  specifications: CustomFormatSpecificationPayload[];
}

/** ProfileFormatItemResource: the score of one custom format inside a quality profile. */
export interface ProfileFormatItemResource {
  id?: number;
  format: number;
  name?: string | null;
  score: number;
}

/** QualityProfileQualityItemResource: a quality (quality set) or a group (id >= 1000, name, items). */
export interface QualityProfileQualityItemResource<Q> {
  id?: number;
  name?: string | null;
  quality?: Q | null;
  items: QualityProfileQualityItemResource<Q>[];
  allowed: boolean;
}

export interface QualityProfileQualityItemPayload<Q> {
  id?: number;
  name?: string | null;
  quality?: Q | null;
  items?: QualityProfileQualityItemPayload<Q>[] | null;
  allowed: boolean;
}

/** QualityDefinitionResource; sizes are MB per minute, absent or null meaning "no limit". */
export interface QualityDefinitionResource<Q> {
  id: number;
  quality: Q;
  title: string;
  weight: number;
  minSize?: number | null;
  maxSize?: number | null;
  preferredSize?: number | null;
}

export type QualityDefinitionPayload<Q> = QualityDefinitionResource<Q>;

/** DelayProfileResource. Id 1 is the global profile (no tags, cannot be deleted). */
export interface DelayProfileResource {
  id: number;
  enableUsenet: boolean;
  enableTorrent: boolean;
  preferredProtocol: DownloadProtocol;
  usenetDelay: number;
  torrentDelay: number;
  bypassIfHighestQuality: boolean;
  bypassIfAboveCustomFormatScore: boolean;
  minimumCustomFormatScore: number;
  order: number;
  tags: number[];
}

export type DelayProfilePayload = Omit<DelayProfileResource, 'id' | 'order'> & { id?: number; order?: number };

/** TagResource */
export interface TagResource {
  id: number;
  label: string;
}

export interface TagPayload {
  id?: number;
  label: string;
}

/** Language (embedded, e.g. Radarr's quality profile language). */
export interface Language {
  id: number;
  name: string;
}

/** LanguageResource (GET /language). */
export interface LanguageResource {
  id: number;
  name: string;
  nameLower: string;
}

export type RuntimeMode = 'console' | 'service' | 'tray';
export type DatabaseType = 'sqLite' | 'postgreSQL';
export type AuthenticationType = 'none' | 'basic' | 'forms' | 'external';
export type UpdateMechanism = 'builtIn' | 'script' | 'external' | 'apt' | 'docker';

/** SystemResource (GET /system/status). Sonarr additionally reports sqliteVersion. */
export interface SystemResource {
  appName: string;
  instanceName: string;
  version: string;
  buildTime: string;
  isDebug: boolean;
  isProduction: boolean;
  isAdmin: boolean;
  isUserInteractive: boolean;
  startupPath: string;
  appData: string;
  osName: string;
  osVersion: string;
  isNetCore: boolean;
  isLinux: boolean;
  isOsx: boolean;
  isWindows: boolean;
  isDocker: boolean;
  mode: RuntimeMode;
  branch: string;
  databaseType: DatabaseType;
  databaseVersion: string;
  authentication: AuthenticationType;
  migrationVersion: number;
  urlBase?: string | null;
  runtimeVersion: string;
  runtimeName: string;
  startTime: string;
  packageVersion?: string | null;
  packageAuthor?: string | null;
  packageUpdateMechanism: UpdateMechanism;
  packageUpdateMechanismMessage?: string | null;
  sqliteVersion?: string | null;
}

/** QualityDefinitionLimitsResource (Radarr and Sonarr only). */
export interface QualityDefinitionLimitsResource {
  min: number;
  max: number;
}
