import fs from 'node:fs';
import { Context } from '@temporalio/activity';
import { parseTrashGuides, refGuideFailureText, type RefGuideArrType, type RefGuideFailure } from '../domain/ref-guide';
import { RefGuideSource } from '../persistence/entities';
import { GitError, headCommit, syncRepository } from '../services/git';
import { openGitCredential } from '../services/git-credentials';
import { replaceGuideCache } from '../services/ref-guide/cache-store';
import { NODE_DIGESTS } from '../services/ref-guide/digests';
import { listGuideFiles, readGuideFiles, refGuideCloneDirectory } from '../services/ref-guide/guide-files';
import { recordRefGuideRefresh } from '../services/ref-guide/settings';
import type { RefGuideCacheSummary, RefGuideSyncProgress } from '../workflows/contracts/ref-guide';
import type { ActivityDeps } from './deps';
import { sourceFailureEvent } from '../domain/notifications';
import { notify } from './notify';

export type RefGuideStep<T> = ({ ok: true } & T) | { ok: false; reason: RefGuideFailure };

const HEARTBEAT_MS = 1000;

export function refGuideActivities(deps: ActivityDeps) {
  const root = (source: RefGuideSource) => (source.originKind === 'git' ? refGuideCloneDirectory(deps.config.dataDir, source.id) : source.originLocation);

  /** Heartbeats carry RefGuideSyncProgress, at most once a second (and always at the end of a phase). */
  const beater = () => {
    const ctx = Context.current();
    let last = 0;
    return (progress: RefGuideSyncProgress) => {
      const now = Date.now();
      if (now - last < HEARTBEAT_MS && progress.done !== progress.total) return;
      last = now;
      ctx.heartbeat(progress);
      deps.logger.debug(progress, 'ref-guide sync progress');
    };
  };

  return {
    /** Shallow-fetches a git origin (the PCD pull's git code) or checks a local directory; returns the commit. */
    async refGuideFetch(sourceId: number): Promise<RefGuideStep<{ commit: string | null }>> {
      const source = await deps.orm.em.findOne(RefGuideSource, { id: sourceId });
      if (!source) return { ok: false, reason: 'source_deleted' };
      source.syncStatus = 'syncing';
      source.lastAttemptAt = new Date();
      await deps.orm.em.flush();
      const beat = beater();
      beat({ phase: 'fetching', done: 0, total: 1 });
      try {
        let commit: string | null;
        if (source.originKind === 'git') {
          commit = await syncRepository(source.originLocation, source.branch ?? 'main', root(source), openGitCredential(deps.secretBox, source.gitCredentialSealed));
        } else {
          if (!fs.existsSync(source.originLocation)) return { ok: false, reason: 'source_missing' };
          commit = await headCommit(source.originLocation);
        }
        beat({ phase: 'fetching', done: 1, total: 1 });
        deps.logger.info({ sourceId, commit }, 'ref-guide source fetched');
        return { ok: true, commit };
      } catch (error) {
        if (error instanceof GitError) {
          deps.logger.debug({ sourceId, reason: error.reason, git: error.detail }, 'ref-guide git fetch failed');
          return { ok: false, reason: error.reason };
        }
        throw error;
      }
    },

    /** Reads and parses docs/json/<app>/, then replaces the cache in one transaction (heartbeats carry progress). */
    async refGuideReplaceCache(sourceId: number, commit: string | null): Promise<RefGuideStep<RefGuideCacheSummary>> {
      const source = await deps.orm.em.findOne(RefGuideSource, { id: sourceId });
      if (!source) return { ok: false, reason: 'source_deleted' };
      const beat = beater();
      const dir = root(source);
      const arrType = source.arrType as RefGuideArrType;
      const paths = fs.existsSync(dir) ? listGuideFiles(dir, arrType) : [];
      const files = readGuideFiles(dir, paths, (done, total) => beat({ phase: 'reading', done, total }));
      const parsed = parseTrashGuides(arrType, files, NODE_DIGESTS);
      if (!parsed.ok) {
        deps.logger.warn({ sourceId, reason: parsed.reason, file: parsed.file }, 'ref-guide source unreadable');
        return { ok: false, reason: parsed.reason };
      }
      const summary = await replaceGuideCache(deps.orm.em.fork(), sourceId, parsed, commit, (done, total) => beat({ phase: 'writing', done, total }));
      if (!summary) return { ok: false, reason: 'source_deleted' };
      const { duplicates, ...logged } = summary;
      deps.logger.info({ sourceId, ...logged, duplicates: duplicates.length }, 'ref-guide cache replaced');
      return { ok: true, ...summary };
    },

    /** Records a failed attempt; the cached entities stay as the last good sync wrote them. */
    async refGuideRecordFailure(sourceId: number, reason: RefGuideFailure): Promise<void> {
      const info = Context.current().info.workflowExecution;
      // The failure and its event commit together.
      const recorded = await deps.orm.em.fork().transactional(async (tx) => {
        const source = await tx.findOne(RefGuideSource, { id: sourceId });
        if (!source) return false;
        source.syncStatus = 'failed';
        source.syncReason = reason;
        await tx.flush();
        const name = source.name;
        const message = refGuideFailureText(reason, source.branch);
        await notify(deps, (links) => sourceFailureEvent(links, { kind: 'ref-guide', id: sourceId, name, reason, message, workflowId: info?.workflowId ?? '', runId: info?.runId ?? String(Date.now()), at: new Date() }), `ref-guide:${sourceId}`, tx);
        return true;
      });
      if (!recorded) return;
      deps.outbox?.kick();
      deps.logger.warn({ sourceId, reason }, 'ref-guide sync failed');
    },

    /** Enabled sources, for the scheduled refresh. */
    async refGuideListEnabled(): Promise<{ id: number; arrType: string }[]> {
      const sources = await deps.orm.em.find(RefGuideSource, { enabled: true }, { orderBy: { id: 'asc' }, fields: ['id', 'arrType'] });
      return sources.map((s) => ({ id: s.id, arrType: s.arrType }));
    },

    async refGuideRecordRefresh(outcome: { sources: number; failed: number; joined: number }): Promise<void> {
      await recordRefGuideRefresh(deps.orm.em, outcome);
      deps.logger.info(outcome, 'ref-guide refresh recorded');
    },
  };
}
