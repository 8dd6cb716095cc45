import path from 'node:path';
import { temporal } from '@temporalio/proto';
import type { Config } from '../../config';
import { temporalWorkflowsLink } from '../../domain/notifications';
import { summarizeLogFiles } from '../../platform/logger';
import type { TemporalGateway } from '../../platform/temporal-client';
import { PcdDatabase, RefGuideSource, SERVABLE_CACHE_STATUSES } from '../../persistence/entities';
import { currentMigration, type Orm } from '../../persistence/orm';
import { backupsDir, formatBytes, summarizeBackups } from '../backup/backup-service';
import { linkContext } from '../notifications/publisher';
import { outboxStalled, readOutboxBacklog, type OutboxBacklog } from '../outbox/outbox-store';

export type ComponentStatus = 'healthy' | 'degraded' | 'unhealthy';

export interface RepoCounts {
  total: number;
  enabled: number;
  cached: number;
  disabled: number;
  /** Enabled databases whose replay is incomplete (some ops failed). */
  degraded: number;
  failed: number;
}

/** PCD databases and reference-guide sources together (the spec's repos), and each kind apart. */
export interface RepoStats extends RepoCounts {
  databases: RepoCounts;
  refGuides: RepoCounts;
}

export interface ServiceHealthDeps {
  config: Config;
  orm: Orm;
  temporal: TemporalGateway;
  startedAt: Date;
  version: string;
  temporalUiUrl: string | null;
}

const TEMPORAL_CHECK_MS = 2000;

/** GET /health: is the service itself working (database, PCD repos, jobs, backups, logs)? Not the apps' config health (services/config-health). */
export async function serviceHealthReport(deps: ServiceHealthDeps, verbose: boolean) {
  const [sqlite, repos, jobs, outbox] = await Promise.all([databaseHealth(deps, verbose), reposHealth(deps, verbose), jobsHealth(deps, verbose), outboxHealth(deps)]);
  const backups = backupsHealth(deps, verbose);
  const logs = logsHealth(deps, verbose);
  const components = { sqlite, repos, jobs, outbox, backups, logs };
  const statuses = Object.values(components).map((c) => c.status);
  const status: ComponentStatus =
    sqlite.status === 'unhealthy' ? 'unhealthy' : statuses.every((s) => s === 'healthy') ? 'healthy' : 'degraded';
  return {
    status,
    timestamp: new Date().toISOString(),
    version: deps.version,
    uptime: Math.floor((Date.now() - deps.startedAt.getTime()) / 1000),
    components,
    ...(verbose ? { temporalUi: temporalWorkflowsLink(linkContext(deps.config, deps.temporalUiUrl)) } : {}),
  };
}

async function databaseHealth(deps: ServiceHealthDeps, verbose: boolean) {
  const started = process.hrtime.bigint();
  try {
    await deps.orm.em.getConnection().execute('select 1');
    const responseTimeMs = Math.round((Number(process.hrtime.bigint() - started) / 1e6) * 100) / 100;
    const migration = await currentMigration(deps.orm);
    return {
      status: 'healthy' as ComponentStatus,
      responseTimeMs,
      migration,
      ...(verbose ? { driver: deps.config.database.kind } : {}),
    };
  } catch {
    const responseTimeMs = Math.round((Number(process.hrtime.bigint() - started) / 1e6) * 100) / 100;
    return {
      status: 'unhealthy' as ComponentStatus,
      responseTimeMs,
      migration: 0,
      message: 'The application database is not answering',
      ...(verbose ? { driver: deps.config.database.kind } : {}),
    };
  }
}

/**
 * Effects of committed changes waiting for Temporal (notification events, drift checks after
 * edits, first pulls and syncs): degraded once the oldest has waited OUTBOX_STALE_SECONDS (Temporal is not taking them).
 */
async function outboxHealth(deps: ServiceHealthDeps) {
  let backlog: OutboxBacklog;
  try {
    backlog = await readOutboxBacklog(deps.orm.em.fork());
  } catch {
    return { status: 'unhealthy' as ComponentStatus, message: 'The outbox cannot be read', backlog: 0, oldestAgeSeconds: 0 };
  }
  const status: ComponentStatus = outboxStalled(backlog) ? 'degraded' : 'healthy';
  const message =
    backlog.backlog === 0
      ? 'Nothing waiting for Temporal'
      : `${backlog.backlog} outbox ${backlog.backlog === 1 ? 'entry' : 'entries'} waiting for Temporal; the oldest for ${backlog.oldestAgeSeconds} s` +
        (status === 'degraded' ? ' (they are kept and published once Temporal answers)' : '');
  return { status, message, ...backlog };
}

/**
 * Linked PCD databases and reference-guide sources as the application database records them (any
 * process may have built them). A source is cached once a sync succeeded (a later failed sync keeps
 * that cache) and failed when its last sync failed.
 */
export async function repoStats(orm: Orm): Promise<RepoStats> {
  const em = orm.em.fork();
  const databases = await em.find(PcdDatabase, {}, { fields: ['enabled', 'cacheStatus'] });
  const sources = await em.find(RefGuideSource, {}, { fields: ['enabled', 'syncStatus', 'lastSyncedAt'] });
  const count = <T extends { enabled: boolean }>(rows: T[], is: { cached: (r: T) => boolean; degraded: (r: T) => boolean; failed: (r: T) => boolean }): RepoCounts => {
    const enabled = rows.filter((r) => r.enabled);
    const n = (p: (r: T) => boolean) => enabled.filter(p).length;
    return { total: rows.length, enabled: enabled.length, disabled: rows.length - enabled.length, cached: n(is.cached), degraded: n(is.degraded), failed: n(is.failed) };
  };
  const dbCounts = count(databases, {
    cached: (d) => SERVABLE_CACHE_STATUSES.includes(d.cacheStatus),
    degraded: (d) => d.cacheStatus === 'degraded',
    failed: (d) => d.cacheStatus === 'failed',
  });
  // A source serves its last good sync even when a later one failed; it has no degraded state.
  const refCounts = count(sources, { cached: (s) => s.lastSyncedAt !== null, degraded: () => false, failed: (s) => s.syncStatus === 'failed' });
  const sum = (k: keyof RepoCounts) => dbCounts[k] + refCounts[k];
  return {
    total: sum('total'),
    enabled: sum('enabled'),
    cached: sum('cached'),
    disabled: sum('disabled'),
    degraded: sum('degraded'),
    failed: sum('failed'),
    databases: dbCounts,
    refGuides: refCounts,
  };
}

async function reposHealth(deps: ServiceHealthDeps, verbose: boolean) {
  let stats: RepoStats;
  try {
    stats = await repoStats(deps.orm);
  } catch {
    return { status: 'unhealthy' as ComponentStatus, message: 'Linked databases cannot be read', ...(verbose ? { total: 0, enabled: 0, cached: 0, disabled: 0 } : {}) };
  }
  const status: ComponentStatus = stats.failed > 0 || stats.degraded > 0 ? 'degraded' : 'healthy';
  const { databases, refGuides } = stats;
  const dbProblems = [
    databases.failed > 0 ? `${databases.failed} of ${databases.enabled} enabled databases failed to build` : null,
    databases.degraded > 0 ? `${databases.degraded} of ${databases.enabled} enabled databases are degraded (some operations failed)` : null,
  ].filter((p): p is string => p !== null);
  const parts =
    databases.total === 0 ? ['No PCD databases linked'] : dbProblems.length > 0 ? dbProblems : [`${databases.cached} of ${databases.enabled} enabled databases cached`];
  if (refGuides.total > 0) {
    parts.push(
      refGuides.failed > 0
        ? `${refGuides.failed} of ${refGuides.enabled} enabled reference-guide sources failed their last sync`
        : `${refGuides.cached} of ${refGuides.enabled} enabled reference-guide sources cached`,
    );
  }
  return {
    status,
    message: parts.join('; '),
    ...(verbose ? { total: stats.total, enabled: stats.enabled, cached: stats.cached, disabled: stats.disabled } : {}),
  };
}

async function jobsHealth(deps: ServiceHealthDeps, verbose: boolean) {
  const { connection, client, namespace, taskQueue } = deps.temporal;
  const withDeadline = <T>(fn: () => Promise<T>) => connection.withDeadline(Date.now() + TEMPORAL_CHECK_MS, fn);
  try {
    await withDeadline(() => connection.workflowService.getSystemInfo({}));
  } catch {
    return {
      status: 'unhealthy' as ComponentStatus,
      message: 'Temporal is unreachable: workflows and schedules cannot run',
      ...(verbose ? { lastRun: {} } : {}),
    };
  }
  let pollers = 0;
  try {
    const described = await withDeadline(() =>
      connection.workflowService.describeTaskQueue({
        namespace,
        taskQueue: { name: taskQueue },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      }),
    );
    pollers = described.pollers?.length ?? 0;
  } catch {
    pollers = 0;
  }
  const lastRun: Record<string, string | null> = {};
  const latest: { job: string; workflowId: string; firstExecutionRunId: string }[] = [];
  let schedules = 0;
  try {
    await withDeadline(async () => {
      for await (const schedule of client.schedule.list()) {
        if (!schedule.scheduleId.startsWith(`${taskQueue}-`)) continue;
        schedules++;
        const actions = [...schedule.info.recentActions].sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime());
        const last = actions[actions.length - 1];
        lastRun[schedule.scheduleId] = last ? last.takenAt.toISOString() : null;
        if (last) latest.push({ job: schedule.scheduleId.slice(taskQueue.length + 1), ...last.action.workflow });
      }
    });
  } catch {
    /* schedules are reported as far as listed */
  }
  const failedJobs = await lastRunsFailed(deps, latest);
  const status: ComponentStatus = pollers > 0 && failedJobs.length === 0 ? 'healthy' : 'degraded';
  const message =
    pollers === 0
      ? `Temporal reachable, but no worker is polling task queue ${taskQueue}`
      : failedJobs.length
        ? `The last run of scheduled job${failedJobs.length === 1 ? '' : 's'} ${failedJobs.join(', ')} failed; see the workflow in the Temporal UI`
        : `Temporal reachable; worker polling; ${schedules} schedule${schedules === 1 ? '' : 's'}`;
  return { status, message, ...(verbose ? { lastRun } : {}) };
}

const FAILED_RUN_STATUSES = new Set(['FAILED', 'TIMED_OUT', 'TERMINATED']);

/** The scheduled jobs whose most recent run ended in failure (a run still in progress does not count). */
async function lastRunsFailed(deps: ServiceHealthDeps, latest: { job: string; workflowId: string; firstExecutionRunId: string }[]): Promise<string[]> {
  const { connection, client } = deps.temporal;
  const failed: string[] = [];
  await Promise.all(
    latest.map(async ({ job, workflowId, firstExecutionRunId }) => {
      try {
        const described = await connection.withDeadline(Date.now() + TEMPORAL_CHECK_MS, () =>
          client.workflow.getHandle(workflowId, undefined, { firstExecutionRunId }).describe(),
        );
        if (FAILED_RUN_STATUSES.has(described.status.name)) failed.push(job);
      } catch {
        /* a run Temporal no longer knows (retention) tells nothing */
      }
    }),
  );
  return failed.sort();
}

function backupsHealth(deps: ServiceHealthDeps, verbose: boolean) {
  const { enabled, intervalHours, retentionDays } = deps.config.backup;
  const summary = summarizeBackups(backupsDir(deps.config.dataDir));
  let status: ComponentStatus = 'healthy';
  let message: string;
  if (!enabled) {
    message = 'Scheduled backups are disabled (BACKUP_ENABLED=false)';
  } else if (!summary.lastBackup) {
    message = 'Scheduled backups are enabled; no backup has run yet';
  } else if (Date.now() - summary.lastBackup.getTime() > intervalHours * 2 * 3_600_000 + 3_600_000) {
    message = 'The last backup is older than two backup intervals';
    status = 'degraded';
  } else {
    message = `${summary.count} backup${summary.count === 1 ? '' : 's'} kept`;
  }
  return {
    status,
    enabled,
    message,
    ...(verbose
      ? {
          lastBackup: summary.lastBackup?.toISOString() ?? null,
          count: summary.count,
          totalSize: formatBytes(summary.totalBytes),
          retentionDays,
        }
      : {}),
  };
}

function logsHealth(deps: ServiceHealthDeps, verbose: boolean) {
  const summary = summarizeLogFiles(path.join(deps.config.dataDir, 'logs'));
  return {
    status: 'healthy' as ComponentStatus,
    message: summary.fileCount ? `${summary.fileCount} log file${summary.fileCount === 1 ? '' : 's'}` : 'No log files yet',
    ...(verbose
      ? {
          totalSize: formatBytes(summary.totalBytes),
          fileCount: summary.fileCount,
          oldestLog: summary.oldest ? summary.oldest.toISOString().slice(0, 10) : null,
          newestLog: summary.newest ? summary.newest.toISOString().slice(0, 10) : null,
        }
      : {}),
  };
}
