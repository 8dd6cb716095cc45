import fs from 'node:fs';
import { Context } from '@temporalio/activity';
import { loadPcdRepository } from '../domain/pcd';
import { isAppError } from '../errors';
import { PcdDatabase } from '../persistence/entities';
import { GitError, headCommit, syncRepository } from '../services/git';
import { openGitCredential } from '../services/git-credentials';
import { fileLayerOpsDiffer, importFileLayerOps } from '../services/pcd/op-store';
import { SnapshotService } from '../services/snapshots/snapshot-service';
import { resolveSchemaDependency } from '../services/pcd/schema-dependency';
import { cloneDirectory, readRepositoryFiles } from '../services/pcd/source-files';
import { sourceFailureText, type SourceFailure } from '../domain/pcd/source-failures';
import type { ActivityDeps } from './deps';
import { sourceFailureEvent } from '../domain/notifications';
import { withHeartbeat } from './heartbeat';
import { notify } from './notify';

export type PullStep<T> = ({ ok: true } & T) | { ok: false; reason: SourceFailure };

export function pcdActivities(deps: ActivityDeps) {
  const sourceDir = (database: PcdDatabase) => (database.sourceKind === 'git' ? cloneDirectory(deps.config.dataDir, database.id) : database.sourceLocation);
  const load = (id: number) => deps.orm.em.findOneOrFail(PcdDatabase, { id });

  /** Clones or fetches the repository (or checks the local directory), reads pcd.json, checks the schema dependency. */
  async function fetchSource(databaseId: number): Promise<PullStep<{ commit: string | null }>> {
    const database = await load(databaseId);
    database.cacheStatus = 'building';
    database.cacheReason = null;
    await deps.orm.em.flush();
    const dir = sourceDir(database);
    let commit: string | null;
    try {
      if (database.sourceKind === 'git') {
        commit = await syncRepository(database.sourceLocation, database.branch ?? 'main', dir, openGitCredential(deps.secretBox, database.gitCredentialSealed));
      } else {
        if (!fs.existsSync(dir)) return { ok: false, reason: 'source_missing' };
        commit = await headCommit(dir);
      }
    } catch (error) {
      if (error instanceof GitError) {
        deps.logger.debug({ databaseId, reason: error.reason, git: error.detail }, 'pcd git fetch failed');
        return { ok: false, reason: error.reason };
      }
      throw error;
    }
    const files = readRepositoryFiles(dir);
    if (files.manifestText === null) return { ok: false, reason: database.sourceKind === 'local' ? 'source_missing' : 'manifest_missing' };
    let manifest;
    try {
      manifest = loadPcdRepository({ manifest: files.manifestText, ops: [] }).manifest!;
    } catch (error) {
      if (isAppError(error)) return { ok: false, reason: 'manifest_invalid' };
      throw error;
    }
    const schema = await resolveSchemaDependency(manifest, deps.config.dataDir, deps.config.pcdSchemaFetch);
    // The schema layer is stored with the other file layers, so any process rebuilds the same cache.
    await importFileLayerOps(deps.orm.em, databaseId, { schema: schema.ops });
    database.manifest = {
      name: manifest.name,
      version: manifest.version,
      description: manifest.description ?? null,
      arrTypes: [...manifest.arrTypes],
      dependencies: { ...manifest.dependencies },
    };
    database.commitSha = commit;
    database.schemaSource = schema.source;
    database.schemaNote = schema.note;
    await deps.orm.em.flush();
    deps.logger.info({ databaseId, commit, schema: schema.source }, 'pcd source fetched');
    return { ok: true, commit };
  }

  /** Imports the base (ops/) and tweaks (tweaks/) ops into the application database; idempotent. */
  async function importOps(databaseId: number): Promise<PullStep<{ inserted: number; removed: number; kept: number }>> {
    const database = await load(databaseId);
    let loaded;
    try {
      loaded = loadPcdRepository(readRepositoryFiles(sourceDir(database)));
    } catch (error) {
      if (isAppError(error)) return { ok: false, reason: 'ops_unreadable' };
      throw error;
    }
    const layers = { base: loaded.base, tweaks: loaded.tweaks };
    // A pull that brings new ops changes the state: snapshot it first (never on the first pull).
    if (database.lastPulledAt && (await fileLayerOpsDiffer(deps.orm.em, databaseId, layers))) {
      await new SnapshotService(deps.orm, deps.pcdCaches).takeSnapshot(databaseId, 'pull');
    }
    const summary = await importFileLayerOps(deps.orm.em, databaseId, layers);
    // A pull ends a rollback's pin: the database follows its repository again.
    if (database.pinnedSnapshotId !== null) {
      database.pinnedSnapshotId = null;
      await deps.orm.em.flush();
    }
    deps.logger.info({ databaseId, ...summary }, 'pcd ops imported');
    return { ok: true, inserted: summary.inserted, removed: summary.removed, kept: summary.kept };
  }

  return {
    pcdFetchSource(databaseId: number): Promise<PullStep<{ commit: string | null }>> {
      return withHeartbeat(() => ({ databaseId }), () => fetchSource(databaseId));
    },

    pcdImportOps(databaseId: number): Promise<PullStep<{ inserted: number; removed: number; kept: number }>> {
      return withHeartbeat(() => ({ databaseId }), () => importOps(databaseId));
    },

    /** Rebuilds the in-memory cache, heartbeating progress, and records the outcome (ready, degraded or failed). */
    async pcdRebuildCache(databaseId: number): Promise<{ totalOps: number; failed: number; conflicts: number; cacheStatus: 'ready' | 'degraded' | 'failed' }> {
      const ctx = Context.current();
      let lastBeat = 0;
      const cache = await deps.pcdCaches.build(databaseId, (progress) => {
        const now = Date.now();
        if (now - lastBeat > 1000 || progress.done === progress.total) {
          lastBeat = now;
          ctx.heartbeat(progress);
          deps.logger.debug({ databaseId, ...progress }, 'pcd replay progress');
        }
      });
      const database = await load(databaseId);
      database.cacheStatus = cache.health.status;
      database.cacheReason = cache.health.reason;
      database.cacheStats = cache.stats;
      database.lastPulledAt = new Date();
      await deps.orm.em.flush();
      const { totalOps, applied, skipped, skippedWrites, failed, conflicts, failedOpsByReason, entities, durationMs } = cache.stats;
      const summary = { databaseId, totalOps, applied, skipped, skippedWrites, failed, conflicts, failedOpsByReason, entities, durationMs };
      if (cache.health.status === 'ready') deps.logger.info(summary, 'pcd cache ready');
      else deps.logger.warn({ ...summary, status: cache.health.status, reason: cache.health.reason }, `pcd cache ${cache.health.status}`);
      return { totalOps: cache.stats.totalOps, failed: cache.stats.failed, conflicts: cache.stats.conflicts, cacheStatus: cache.health.status };
    },

    async pcdRecordFailure(databaseId: number, reason: SourceFailure): Promise<void> {
      const info = Context.current().info.workflowExecution;
      // The failure and its event commit together.
      const recorded = await deps.orm.em.fork().transactional(async (tx) => {
        const database = await tx.findOne(PcdDatabase, { id: databaseId });
        if (!database) return false;
        database.cacheStatus = 'failed';
        database.cacheReason = reason;
        await tx.flush();
        const name = database.name;
        const message = sourceFailureText(reason, database.branch);
        await notify(deps, (links) => sourceFailureEvent(links, { kind: 'pcd', id: databaseId, name, reason, message, workflowId: info?.workflowId ?? '', runId: info?.runId ?? String(Date.now()), at: new Date() }), `pcd:${databaseId}`, tx);
        return true;
      });
      if (!recorded) return;
      deps.outbox?.kick();
      deps.logger.warn({ databaseId, reason }, 'pcd pull failed');
    },
  };
}
