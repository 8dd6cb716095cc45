import type { components, operations } from './client';

type Schemas = components['schemas'];

export type ArrType = Schemas['ArrType'];
export type Instance = Schemas['Instance'];
export type InstanceCreate = Schemas['InstanceCreate'];
export type InstancePatch = Schemas['InstancePatch'];
export type InstanceTestResult = Schemas['InstanceTestResult'];
export type InstanceRegistered = Schemas['InstanceWithConnectionTest'];
export type SyncConfig = Schemas['SyncConfig'];
export type SyncConfigInput = Schemas['SyncConfigInput'];
export type SyncSelection = Schemas['SyncSelection'];

/**
 * The apps' display names, for the console's labels only (the API speaks the families; the
 * server's mapping is src/domain/arr-types.ts). Typed by the generated ArrType: a new family does
 * not compile until it has a name here.
 */
export const APP_LABELS: Record<ArrType, string> = { movie_app: 'Radarr', series_app: 'Sonarr', music_app: 'Lidarr' };

export const ARR_TYPE_OPTIONS = (Object.keys(APP_LABELS) as ArrType[]).map((value) => ({ value, label: `${APP_LABELS[value]} (${value})` }));

export type FleetOverview = Schemas['FleetOverview'];
export type FleetInstance = Schemas['FleetInstance'];

export type Database = Schemas['Database'];
export type DatabaseCreate = Schemas['DatabaseCreate'];
export type DatabasePullState = Schemas['DatabasePullState'];
export type FailedOp = Schemas['FailedOp'];

export type SyncSection = Schemas['SyncSection'];
export type Adoption = Schemas['Adoption'];
export type SyncPreview = Schemas['SyncPreview'];
export type SyncChange = Schemas['SyncChange'];
export type FieldChange = Schemas['FieldChange'];
export type SyncHistoryItem = Schemas['SyncHistoryItem'];
export type SyncHistoryFilter = NonNullable<operations['listSyncHistory']['parameters']['query']>;
