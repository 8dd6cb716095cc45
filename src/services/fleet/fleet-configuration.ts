import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceDeps } from '../deps';
import { DriftService } from '../drift/drift-service';
import { InstanceService } from '../instances/instance-service';
import { ChannelService } from '../notifications/channel-service';
import { PcdDatabaseLifecycle } from '../pcd/database-lifecycle';
import { RefGuideService } from '../ref-guide';
import { SnapshotService } from '../snapshots/snapshot-service';
import { SyncHistoryService } from '../sync/history-service';
import { SyncConfigService } from '../sync/sync-config-service';

/** The most instances (and channels) one configuration read answers with. */
export const FLEET_CONFIGURATION_MAX = 5000;

/**
 * Everything the fleet file (`arrgo.yaml`) declares, in one read: what `arrgo plan` compares the
 * file against and `arrgo export` writes. Secrets are never read, only whether one is stored.
 */
export async function readFleetConfiguration(deps: ServiceDeps) {
  const instances = (await InstanceService.of(deps).list({ page: 1, pageSize: FLEET_CONFIGURATION_MAX })).items;
  const syncTargets = await SyncConfigService.of(deps).findMany(instances.map((i) => i.id));
  const drift = await new DriftService(deps).settings();
  const refGuide = await new RefGuideService(deps).settings();
  return {
    instances,
    syncConfigs: [...syncTargets].map(([instanceId, target]) => ({ instanceId, databases: target.databases })),
    databases: await new PcdDatabaseLifecycle(deps).list(),
    refGuideSources: await new RefGuideService(deps).list(),
    channels: (await ChannelService.of(deps).list(1, FLEET_CONFIGURATION_MAX)).items,
    settings: {
      driftPolling: { enabled: drift.enabled, intervalMinutes: drift.intervalMinutes },
      refGuideRefresh: { enabled: refGuide.enabled, intervalMinutes: refGuide.intervalMinutes },
      syncHistoryRetention: await new SyncHistoryService(deps).settings(),
      snapshots: await SnapshotService.of(deps).settings(),
    },
  };
}

/**
 * The fleet file's JSON Schema, generated from the CLI's zod schema into schemas/ (the same
 * relative path from src/ and from dist/).
 */
export const FLEET_SCHEMA_FILE = path.join(__dirname, '..', '..', '..', 'schemas', 'arrgo-fleet.schema.json');

let fleetSchema: Promise<Record<string, unknown>> | null = null;

export function readFleetSchema(): Promise<Record<string, unknown>> {
  fleetSchema ??= readFile(FLEET_SCHEMA_FILE, 'utf8').then((text) => JSON.parse(text) as Record<string, unknown>);
  return fleetSchema;
}
