import { createHash } from 'node:crypto';
import { assessReplay, replayPcd, planFieldEdits, type UserOp } from '../../../src/domain/pcd';
import { readProfile, SKIP_REASONS } from '../../../src/domain/goals';
import { previewGoal, sandboxOf } from '../../../src/services/goals/goal-preview';
import type { PcdCache } from '../../../src/services/pcd/cache-manager';
import { sampleRepository } from '../pcd/helpers';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function cacheOf(user: UserOp[] = []): PcdCache {
  const repo = sampleRepository();
  const replay = replayPcd({ base: repo.base, tweaks: repo.tweaks, user });
  const memos = new Map<string, unknown>();
  return {
    ...replay,
    databaseId: 1,
    contentVersion: 3,
    userVersion: user.length,
    builtAt: new Date(0),
    health: assessReplay({ outcomes: replay.outcomes, base: replay.base, repositoryOps: repo.base.length, schema: replay.schema }),
    stats: {} as PcdCache['stats'],
    memo<T>(key: string, compute: () => T): T {
      if (!memos.has(key)) memos.set(key, compute());
      return memos.get(key) as T;
    },
  };
}

const REQUEST = {
  databaseId: 1,
  arrType: 'movie_app' as const,
  profileName: 'Movies 1080p',
  preset: 'smallest-size',
  weights: { qualityVsSize: 20, compatibility: 80, hdrPreference: 10, unwantedStrictness: 90, resolutionCeiling: '720p' as const },
};

describe('goal preview sandbox', () => {
  it('leaves the cached base and resolved databases and the user ops byte-identical', () => {
    const cache = cacheOf();
    const user = JSON.stringify(cache.outcomes.filter((o) => o.layer === 'user'));
    const before = [sha(cache.base.serialize()), sha(cache.resolved.serialize())];
    const { preview, op } = previewGoal(cache, REQUEST);
    // The sandbox is a private copy of the resolved state (without lineage triggers); each preview's op is rolled back in it.
    const resolvedProfile = JSON.stringify(readProfile(cache.resolved, 'Movies 1080p'));
    expect(JSON.stringify(sandboxOf(cache).read('Movies 1080p'))).toBe(resolvedProfile);
    expect(op).not.toBeNull();
    expect(preview.configDiff[0].changes.length).toBeGreaterThan(0);
    expect(preview.databaseVersion).toBe('3.0');
    previewGoal(cache, { ...REQUEST, preset: "4k-hdr" });
    expect([sha(cache.base.serialize()), sha(cache.resolved.serialize())]).toEqual(before);
    expect(JSON.stringify(sandboxOf(cache).read('Movies 1080p'))).toBe(resolvedProfile);
    expect(JSON.stringify(cache.outcomes.filter((o) => o.layer === 'user'))).toBe(user);
  });

  it('gives consecutive previews of one state with different weights exactly what fresh sandboxes give', () => {
    const requests = [
      REQUEST,
      { ...REQUEST, preset: 'best-quality', weights: { qualityVsSize: 100, compatibility: 0, hdrPreference: 100, unwantedStrictness: 10, resolutionCeiling: '2160p' as const } },
      { ...REQUEST, preset: 'balanced', weights: { qualityVsSize: 50, compatibility: 50, hdrPreference: 50, unwantedStrictness: 50, resolutionCeiling: '1080p' as const } },
      REQUEST,
    ];
    const body = (r: ReturnType<typeof previewGoal>) => JSON.stringify({ preview: r.preview, sql: r.op?.sql ?? null });
    const shared = cacheOf();
    const consecutive = requests.map((r) => body(previewGoal(shared, r)));
    const fresh = requests.map((r) => body(previewGoal(cacheOf(), r)));
    expect(consecutive).toEqual(fresh);
    // The weights matter (the comparison is not between equal plans), and the first request answers the same again.
    expect(new Set(fresh).size).toBe(3);
    expect(consecutive[3]).toBe(consecutive[0]);
  });

  it('the op it plans, replayed as a user op, gives exactly the sandbox profile', () => {
    const cache = cacheOf();
    const { preview, op } = previewGoal(cache, REQUEST);
    const adopted = cacheOf([{ id: 1, sql: op!.sql, target: op!.target }]);
    expect(adopted.conflicts).toEqual([]);
    const again = previewGoal(adopted, REQUEST);
    expect(again.op).toBeNull();
    expect(again.preview.configDiff).toEqual([]);
    expect(again.preview.appliedChanges).toEqual([]);
    expect(again.preview.skippedChanges.filter((s) => s.reason === SKIP_REASONS.unchanged)).toHaveLength(preview.appliedChanges.length + preview.skippedChanges.filter((s) => s.reason === SKIP_REASONS.unchanged).length);
  });

  it('skips every change while a user edit of the profile is a pending conflict', () => {
    const base = cacheOf();
    const edit = planFieldEdits(base.resolved, 'quality_profile', 'Movies 1080p', [{ path: 'upgradeUntilScore', value: 1234 }])!;
    // A guard that no longer holds: the base value it expects is not there.
    const stale = { id: 7, sql: edit.sql.replace('"upgrade_until_score" = 1000', '"upgrade_until_score" = 999'), target: edit.target };
    const cache = cacheOf([stale]);
    expect(cache.conflicts.map((c) => c.name)).toEqual(['Movies 1080p']);
    const { preview, op } = previewGoal(cache, REQUEST);
    expect(op).toBeNull();
    expect(preview.configDiff).toEqual([]);
    expect(preview.appliedChanges).toEqual([]);
    expect(preview.skippedChanges.length).toBeGreaterThan(0);
    expect(preview.skippedChanges.every((s) => s.reason === SKIP_REASONS.conflict)).toBe(true);
  });
});

describe('goal preview with reference-guide hints', () => {
  it('lets linked guide groups decide first, and keys the cached categorizations by the guide content', () => {
    const cache = cacheOf();
    const without = previewGoal(cache, REQUEST).preview;
    expect(without.plan.uncategorized.map((u) => u.name)).toContain('Cam');
    const guide = { key: 'source-1@abc', hints: { byName: new Map([['Cam', { categories: ['unwanted'] as const, group: '[Unwanted] Unwanted Formats' }]]) } };
    const withGuide = previewGoal(cache, REQUEST, { guide, siblingInstances: [] }).preview;
    expect(withGuide.plan.uncategorized.map((u) => u.name)).not.toContain('Cam');
    expect(withGuide.plan.decisions.find((d) => d.customFormatName === 'Cam')).toMatchObject({
      category: 'unwanted',
      reason: { code: 'guide_group', ruleId: 'guide:[Unwanted] Unwanted Formats' },
    });
    // Without the guide again: the earlier categorizations are reused, not the guided ones.
    expect(previewGoal(cache, REQUEST).preview).toEqual(without);
  });
});
