import { AppSettingSchema } from './app-setting';
import { InstanceSchema } from './instance';
import { PcdDatabaseSchema } from './pcd-database';
import { PcdOpSchema } from './pcd-op';
import { InstanceSyncConfigSchema, SyncPreviewSchema, SyncRunSchema } from './sync';
import { CanaryRolloutSchema } from './canary-rollout';
import { DriftResultSchema } from './drift-result';
import { HealthSnapshotSchema } from './health-snapshot';
import { ComplexityTierSchema, UiPreferenceSchema } from './ui-preference';

export { AppSetting } from './app-setting';
export { Instance } from './instance';
export { PcdDatabase } from './pcd-database';
export type { PcdCacheStats, PcdCacheStatus, PcdFailedOpRecord, PcdManifestRecord, PcdSchemaSource, PcdSourceKind } from './pcd-database';
export { SERVABLE_CACHE_STATUSES } from './pcd-database';
export { PcdOp } from './pcd-op';
export type { PcdOpLayer } from './pcd-op';
export { InstanceSyncConfig, SyncPreview, SyncRun } from './sync';
export type { PreviewStatus, SyncRunStatus } from './sync';
export { CanaryRollout } from './canary-rollout';
export type { CanaryStatus, RolloutStatus } from './canary-rollout';
export { DriftResult } from './drift-result';
export type { DriftStatus } from './drift-result';
export { HealthSnapshot } from './health-snapshot';
export { ComplexityTier, UiPreference } from './ui-preference';

export const ENTITIES = [InstanceSchema, AppSettingSchema, PcdDatabaseSchema, PcdOpSchema, InstanceSyncConfigSchema, SyncPreviewSchema, SyncRunSchema, CanaryRolloutSchema, DriftResultSchema, HealthSnapshotSchema, UiPreferenceSchema, ComplexityTierSchema];
