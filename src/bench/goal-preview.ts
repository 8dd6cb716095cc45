/**
 * Goal preview benchmark on the largest trash-pcd quality profile, two ways, each a ratio against a
 * baseline measured in the same run:
 * - through the real API: one POST /goals/preview against one GET /pcd/{id}/resolved/qualityProfile
 *   (the resolved read that serves the profile), both over HTTP on the same service;
 * - in process: the preview computation (categorize, score, thresholds, ladder, sandbox compile and
 *   diff) against reading that one profile from the resolved state (what the resolved read does
 *   per entity), on the same cache state.
 * Both sides are sampled alternately after warm-up (see pairedTimings). In process the ratio is
 * best-of-N against best-of-N: a sample takes about a millisecond, and on a busy machine the
 * longer side is preempted more often, which inflates its median far more than the read's; over
 * HTTP (tens of milliseconds, as before) it is median against median. The other figure is printed
 * beside each. Values derived from one cache state
 * (formats, patterns, compatibility, categorizations, resolved profiles, the sandbox copy) are
 * computed once per state, so the first preview after a pull costs more; it is reported separately.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PRESETS } from '../domain/goals';
import { assessReplay, entityNames, loadPcdRepository, readEntity, replayPcd, resolveEntity, type QualityProfileData } from '../domain/pcd';
import { previewGoal, type GoalRequest } from '../services/goals/goal-preview';
import type { PcdCache } from '../services/pcd/cache-manager';
import { pairedTimings, timeIt, type Benchmark } from './harness';
import { SHARED_DIR, startBenchService, until } from './service-harness';

const TRASH_DIR = path.join(SHARED_DIR, 'data', 'pcd', 'trash-pcd');
/** Rounds per side: one preview takes about a millisecond in process, tens over HTTP. */
const IN_PROCESS_ROUNDS = 200;
const API_ROUNDS = 30;

function trashCache(): PcdCache {
  const opsDir = path.join(TRASH_DIR, 'ops');
  const repo = loadPcdRepository({
    manifest: fs.readFileSync(path.join(TRASH_DIR, 'pcd.json'), 'utf8'),
    ops: fs.readdirSync(opsDir).map((file) => ({ file, text: fs.readFileSync(path.join(opsDir, file), 'utf8') })),
  });
  const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks });
  const memos = new Map<string, unknown>();
  return {
    ...replay,
    databaseId: 1,
    contentVersion: 1,
    userVersion: 0,
    builtAt: new Date(),
    health: assessReplay({ outcomes: replay.outcomes, base: replay.base, repositoryOps: repo.base.length, schema: replay.schema }),
    stats: { totalOps: replay.stats.ops, applied: replay.stats.applied, failed: replay.stats.failed, conflicts: 0, failedByReason: {}, builtAt: new Date().toISOString(), durationMs: replay.stats.ms },
    memo<T>(key: string, compute: () => T): T {
      if (!memos.has(key)) memos.set(key, compute());
      return memos.get(key) as T;
    },
  };
}

/** The profile with the most rows (scores across scopes plus quality items). */
function largestProfile(cache: PcdCache): QualityProfileData {
  const profiles = entityNames(cache.resolved, 'quality_profile').map((n) => readEntity(cache.resolved, 'quality_profile', n)!.data as QualityProfileData);
  const size = (p: QualityProfileData) => Object.values(p.customFormats).reduce((s, l) => s + l.length, 0) + p.qualities.length;
  return profiles.sort((a, b) => size(b) - size(a) || (a.name < b.name ? -1 : 1))[0];
}

export const goalPreviewBenchmark: Benchmark = {
  name: 'goal-preview',
  unavailable: () => (fs.existsSync(TRASH_DIR) ? null : `${TRASH_DIR} is absent`),
  async run(report) {
    const cache = trashCache();
    const profile = largestProfile(cache);
    const arrType = profile.customFormats.movie_app.length >= profile.customFormats.series_app.length ? 'movie_app' : 'series_app';
    const request: GoalRequest = { databaseId: 1, arrType, profileName: profile.name, preset: 'balanced', weights: PRESETS[0].suggestedWeights };
    const cold = await timeIt(() => previewGoal(cache, request));
    const inProcess = await pairedTimings(
      IN_PROCESS_ROUNDS,
      () => resolveEntity(cache, 'quality_profile', profile.name),
      () => previewGoal(cache, request),
    );
    report({
      name: `goal preview: "${profile.name}" (${arrType})`,
      values: {
        previewMs: inProcess.measured.bestMs,
        resolvedReadMs: inProcess.baseline.bestMs,
        previewMedianMs: inProcess.measured.medianMs,
        resolvedReadMedianMs: inProcess.baseline.medianMs,
        medianRatio: inProcess.medianRatio,
        rounds: String(inProcess.rounds),
        firstPreviewAfterPullMs: cold.ms,
        decisions: cold.value.preview.plan.decisions.length,
        applied: cold.value.preview.appliedChanges.length,
      },
      ratio: { value: inProcess.bestRatio, baseline: `one resolved read of the profile (best of ${inProcess.rounds} alternating rounds each)`, goal: '<= 5x' },
    });
    cache.base.close();
    cache.resolved.close();

    const bench = await startBenchService();
    try {
      const linked = await bench.request('POST', '/databases', { name: 'trash', source: { kind: 'local', path: TRASH_DIR } });
      const databaseId = linked.body.id as number;
      await until(() => bench.request('GET', `/databases/${databaseId}`), (r) => r.body.cache.status === 'ready');
      const body = { ...request, databaseId };
      const first = await timeIt(() => bench.request('POST', '/goals/preview', body));
      if (first.value.status !== 200) throw new Error(`goal preview answered ${first.value.status}`);
      const api = await pairedTimings(
        API_ROUNDS,
        () => bench.request('GET', `/pcd/${databaseId}/resolved/qualityProfile`),
        () => bench.request('POST', '/goals/preview', body),
      );
      report({
        name: `goal preview via the API: "${profile.name}"`,
        values: {
          previewMs: api.measured.medianMs,
          resolvedReadMs: api.baseline.medianMs,
          previewBestMs: api.measured.bestMs,
          resolvedReadBestMs: api.baseline.bestMs,
          bestRatio: api.bestRatio,
          rounds: String(api.rounds),
          firstPreviewAfterPullMs: first.ms,
        },
        ratio: { value: api.medianRatio, baseline: 'GET /pcd/{id}/resolved/qualityProfile (medians)', goal: '<= 5x' },
      });
    } finally {
      await bench.close();
    }
  },
};
