import type { EntityManager } from '@mikro-orm/core';
import type { ArrType } from '../../domain/arr-types';
import { SERVABLE_CACHE_STATUSES, type Instance, type PcdCacheStatus, type PcdDatabase } from '../../persistence/entities';
import { parseStoredSelection, syncTarget, type InstanceSyncTarget } from './sync-config-service';

export type TargetDatabase = Pick<PcdDatabase, 'id' | 'name' | 'enabled' | 'contentVersion' | 'userVersion'> & { cacheStatus: PcdCacheStatus; pulled: boolean };

/**
 * What recording and generating a preview read about its instance: the instance, its sync
 * configuration and the databases that feed it. One statement instead of one ORM query each
 * (a row per database of the configuration): a preview is bookkeeping around app reads, and ten
 * of them at once share one process's CPU.
 */
export interface PreviewTarget {
  instance: Pick<Instance, 'id' | 'name' | 'arrType' | 'baseUrl' | 'apiKeySealed' | 'enabled'> | null;
  /** The databases in order and the effective selection (src/domain/sync/merge.ts). */
  config: InstanceSyncTarget | null;
  /** The first database. */
  database: TargetDatabase | null;
  /** Every database of the configuration, in order (null: deleted since). */
  databases: (TargetDatabase | null)[];
}

/** The stored preview a generation starts from, with its target (null: no such preview). */
export interface PreviewSubject extends PreviewTarget {
  preview: { id: number; instanceId: number; instanceName: string; sections: string[]; liveFingerprint: string | null };
}

interface Row {
  instance_id: number | null;
  instance_name: string | null;
  arr_type: ArrType | null;
  base_url: string | null;
  api_key_sealed: string | null;
  instance_enabled: number | boolean | null;
  database_id: number | null;
  selection: string | Record<string, unknown> | null;
  db_id: number | null;
  db_name: string | null;
  db_enabled: number | boolean | null;
  cache_status: PcdCacheStatus | null;
  last_pulled_at: unknown;
  content_version: number | null;
  user_version: number | null;
}

const TARGET_COLUMNS = `i.id as instance_id, i.name as instance_name, i.arr_type, i.base_url, i.api_key_sealed, i.enabled as instance_enabled,
  c.database_id, c.selection, d.id as db_id, d.name as db_name, d.enabled as db_enabled, d.cache_status, d.last_pulled_at, d.content_version, d.user_version`;

/** The instance's target; its instance is null when there is no such instance. */
export async function readPreviewTarget(em: EntityManager, instanceId: number): Promise<PreviewTarget> {
  const rows: Row[] = await em.getConnection().execute(
    `select ${TARGET_COLUMNS}
     from instances i
     left join instance_sync_databases c on c.instance_id = i.id
     left join pcd_databases d on d.id = c.database_id
     where i.id = ?
     order by c.position`,
    [instanceId],
  );
  return rows.length ? toTarget(rows) : { instance: null, config: null, database: null, databases: [] };
}

/** A stored preview and its instance's target, in one statement. */
export async function readPreviewSubject(em: EntityManager, previewId: number): Promise<PreviewSubject | null> {
  const rows: (Row & { preview_id: number; preview_instance_id: number; preview_instance_name: string; sections: string | string[]; live_fingerprint: string | null })[] = await em.getConnection().execute(
    `select p.id as preview_id, p.instance_id as preview_instance_id, p.instance_name as preview_instance_name, p.sections, p.live_fingerprint, ${TARGET_COLUMNS}
     from sync_previews p
     left join instances i on i.id = p.instance_id
     left join instance_sync_databases c on c.instance_id = p.instance_id
     left join pcd_databases d on d.id = c.database_id
     where p.id = ?
     order by c.position`,
    [previewId],
  );
  if (!rows.length) return null;
  const row = rows[0];
  return {
    preview: { id: Number(row.preview_id), instanceId: Number(row.preview_instance_id), instanceName: row.preview_instance_name, sections: jsonColumn(row.sections) as string[], liveFingerprint: row.live_fingerprint },
    ...toTarget(rows),
  };
}

/**
 * What an apply attempt reads before it writes, in one statement: the preview's plan and the
 * fingerprint of the live state it was computed against, its instance and sync configuration,
 * and the outcomes its run has recorded so far (where a retried attempt resumes).
 */
export interface ApplySubject extends PreviewTarget {
  preview: { id: number; instanceId: number; sections: string[]; liveFingerprint: string | null; plan: Record<string, unknown> | null };
  outcomes: Record<string, unknown>[];
  /** What reading the run's writes back found, once verified (null before). */
  verification: Record<string, unknown> | null;
}

export async function readApplySubject(em: EntityManager, previewId: number, runId: number): Promise<ApplySubject | null> {
  const rows: (Row & { preview_id: number; preview_instance_id: number; sections: string | string[]; live_fingerprint: string | null; plan: unknown; outcomes: unknown; verification: unknown })[] =
    await em.getConnection().execute(
      `select p.id as preview_id, p.instance_id as preview_instance_id, p.sections, p.live_fingerprint, p.plan, r.outcomes, r.verification, ${TARGET_COLUMNS}
       from sync_previews p
       join sync_runs r on r.id = ?
       left join instances i on i.id = p.instance_id
       left join instance_sync_databases c on c.instance_id = p.instance_id
       left join pcd_databases d on d.id = c.database_id
       where p.id = ?
       order by c.position`,
      [runId, previewId],
    );
  if (!rows.length) return null;
  const row = rows[0];
  return {
    preview: {
      id: Number(row.preview_id),
      instanceId: Number(row.preview_instance_id),
      sections: jsonColumn(row.sections) as string[],
      liveFingerprint: row.live_fingerprint,
      plan: (jsonColumn(row.plan) as Record<string, unknown> | null) ?? null,
    },
    outcomes: (jsonColumn(row.outcomes) as Record<string, unknown>[] | null) ?? [],
    verification: (jsonColumn(row.verification) as Record<string, unknown> | null) ?? null,
    ...toTarget(rows),
  };
}

/**
 * The first database of the target that cannot serve a preview (deleted, its cache not ready, and
 * as asked disabled or never pulled), or null.
 */
export function unreadyDatabase(target: Pick<PreviewTarget, 'config' | 'databases'>, require: { enabled?: boolean; pulled?: boolean }): { databaseId: number } | null {
  if (!target.config) return null;
  const at = target.databases.findIndex((d) => !d || !SERVABLE_CACHE_STATUSES.includes(d.cacheStatus) || (require.enabled && !d.enabled) || (require.pulled && !d.pulled));
  return at < 0 ? null : { databaseId: target.config.databases[at].databaseId };
}

function toTarget(rows: Row[]): PreviewTarget {
  const [row] = rows;
  const entries = rows.filter((r) => r.database_id !== null);
  const databases = entries.map(targetDatabase);
  return {
    instance:
      row.instance_id === null
        ? null
        : { id: Number(row.instance_id), name: row.instance_name!, arrType: row.arr_type!, baseUrl: row.base_url!, apiKeySealed: row.api_key_sealed!, enabled: Boolean(row.instance_enabled) },
    config: entries.length === 0 ? null : syncTarget(entries.map((r) => ({ databaseId: Number(r.database_id), selection: parseStoredSelection(jsonColumn(r.selection) as Record<string, unknown>) }))),
    database: databases[0] ?? null,
    databases,
  };
}

function targetDatabase(row: Row): TargetDatabase | null {
  return row.db_id === null
    ? null
    : {
        id: Number(row.db_id),
        name: row.db_name!,
        enabled: Boolean(row.db_enabled),
        cacheStatus: row.cache_status!,
        pulled: row.last_pulled_at !== null && row.last_pulled_at !== undefined,
        contentVersion: Number(row.content_version),
        userVersion: Number(row.user_version),
      };
}

/** A JSON column: text on SQLite, parsed by the PostgreSQL driver. */
export function jsonColumn(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}


/** A generation's outcome as stored on its preview row (plan and fingerprint only when it succeeded). */
export interface GeneratedRow {
  preview: Record<string, unknown> | null;
  failure: Record<string, unknown> | null;
  generatedAt: Date;
  plan?: Record<string, unknown>;
  liveFingerprint?: string;
}

/**
 * Stores a generation's outcome: one statement, the JSON serialized once (as the unit of work
 * would, `JSON.stringify`) and sent as bound parameters. The plan is large (a write step per
 * entity); an ORM update would walk it twice more before serializing it.
 */
export async function storeGeneratedPreview(em: EntityManager, previewId: number, row: GeneratedRow): Promise<void> {
  const date = (value: Date) => em.getPlatform().processDateProperty(value);
  const json = (value: Record<string, unknown> | null) => (value === null ? null : JSON.stringify(value));
  const columns: [string, unknown][] = [
    ['preview', jsonColumn(row.preview)],
    ['failure', jsonColumn(row.failure)],
    ['generated_at', date(row.generatedAt)],
    ['updated_at', date(new Date())],
  ];
  if (row.plan !== undefined) columns.push(['plan', jsonColumn(row.plan)]);
  if (row.liveFingerprint !== undefined) columns.push(['live_fingerprint', row.liveFingerprint]);
  await em.getConnection().execute(`update sync_previews set ${columns.map(([name]) => `${name} = ?`).join(', ')} where id = ?`, [...columns.map(([, value]) => value), previewId], 'run');
}

/** Records the workflow id of a preview (known once its row has an id). */
export async function storePreviewWorkflowId(em: EntityManager, previewId: number, workflowId: string): Promise<void> {
  await em.getConnection().execute('update sync_previews set workflow_id = ? where id = ?', [workflowId, previewId], 'run');
}
