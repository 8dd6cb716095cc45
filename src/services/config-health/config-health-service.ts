import { parseExportFormat, renderTrendExport, type HealthResult, type TrendEnvelope } from '../../domain/health';
import type { ServiceDeps } from '../deps';
import type { HealthRecomputer } from './health-snapshots';
import { healthInstance, latestHealth, trendSelection } from './trends';

export type ConfigHealthDeps = Pick<ServiceDeps, 'orm' | 'config'> & { healthRecomputer: HealthRecomputer };

/** The use cases behind /config-health: recompute, the latest result, trends and their export. */
export class ConfigHealthService {
  constructor(private readonly deps: ConfigHealthDeps) {}

  recompute(instanceId: number): Promise<HealthResult> {
    return this.deps.healthRecomputer.recompute(this.deps.orm.em, instanceId);
  }

  async latest(instanceId: number): Promise<HealthResult> {
    await healthInstance(this.deps.orm.em, instanceId);
    return latestHealth(this.deps.orm.em, instanceId);
  }

  /** The canonical trend selection; query is the raw query string (the domain validates it). */
  async trends(instanceId: number, query: Record<string, unknown>): Promise<TrendEnvelope> {
    const instance = await healthInstance(this.deps.orm.em, instanceId);
    const policy = { retentionDays: this.deps.config.health.retentionDays, snapshotIntervalMinutes: this.deps.config.health.snapshotIntervalMinutes };
    return trendSelection(this.deps.orm.em, instance, query, policy);
  }

  /** The same selection rendered as a JSON or CSV attachment (body and headers). */
  async exportTrends(instanceId: number, query: Record<string, unknown>): Promise<{ body: string; headers: Record<string, string> }> {
    await healthInstance(this.deps.orm.em, instanceId);
    const format = parseExportFormat(query.format);
    return renderTrendExport(await this.trends(instanceId, query), format, new Date());
  }
}
