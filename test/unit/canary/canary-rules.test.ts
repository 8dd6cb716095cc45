import {
  assembleEvidence,
  batchesFrom,
  canaryPasses,
  judgeCanary,
  normalizeEvidence,
  proceedBlocker,
  summarizeCounts,
  targetResult,
  type EvidenceEntry,
  type SyncOutcome,
} from '../../../src/domain/canary';

const counts = (create = 0, update = 0, del = 0, unchanged = 5) => ({ create, update, delete: del, unchanged });
const outcome = (o: Partial<SyncOutcome>): SyncOutcome => ({ previewStatus: 'applied', runStatus: 'success', counts: counts(1), failure: null, ...o });
const failure = { code: 'rejected' as const, message: 'The app instance rejected the request.', recoveryAction: 'Review.' };
const entry = (instanceId: number, status: 'ready' | 'failed' = 'ready'): EvidenceEntry => ({
  instanceId,
  instanceName: `i${instanceId}`,
  previewId: status === 'ready' ? 100 + instanceId : 200 + instanceId,
  status,
  counts: status === 'ready' ? counts() : null,
  failure: status === 'ready' ? null : failure,
});

describe('canary rules', () => {
  it('judges the canary outcome', () => {
    expect(judgeCanary(outcome({}))).toBe('success');
    expect(judgeCanary(outcome({ counts: counts(0, 0, 0, 9) }))).toBe('skipped');
    expect(judgeCanary(outcome({ previewStatus: 'failed', runStatus: 'partial' }))).toBe('partial');
    expect(judgeCanary(outcome({ previewStatus: 'failed', runStatus: 'failed' }))).toBe('failed');
    expect(judgeCanary(outcome({ previewStatus: 'failed', runStatus: null }))).toBe('failed');
    expect(judgeCanary(outcome({ previewStatus: 'expired', runStatus: null }))).toBe('failed');
  });

  it('lets success pass, partial only under the gate policy, nothing else', () => {
    expect(canaryPasses('success', 'abort')).toBe(true);
    expect(canaryPasses('partial', 'gate')).toBe(true);
    expect(canaryPasses('partial', 'abort')).toBe(false);
    expect(canaryPasses('skipped', 'gate')).toBe(false);
    expect(canaryPasses('failed', 'gate')).toBe(false);
  });

  it('summarizes results for humans', () => {
    expect(summarizeCounts(counts(3, 1, 0, 12))).toBe('3 created, 1 updated, 12 unchanged');
    expect(summarizeCounts(counts(0, 0, 0, 4))).toBe('no changes (4 unchanged)');
    expect(targetResult({ instanceId: 1, instanceName: 'a' }, outcome({}), { previewId: 1, runId: 2 })).toMatchObject({ status: 'success', summary: 'Synced: 1 created, 5 unchanged', diagnostics: null });
    expect(targetResult({ instanceId: 1, instanceName: 'a' }, outcome({ previewStatus: 'failed', runStatus: 'failed', failure }), { previewId: 1, runId: 2 })).toMatchObject({
      status: 'failed',
      summary: 'Not synced: The app instance rejected the request.',
      diagnostics: { failure },
    });
  });

  it('assembles evidence: any failure makes it unavailable, keeping the successful previews and the failed ones', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(assembleEvidence([entry(1), entry(2)], now)).toEqual({ version: 1, availability: 'available', generatedAt: now.toISOString(), entries: [entry(1), entry(2)] });
    const bad = assembleEvidence([entry(1), entry(2, 'failed')], now);
    expect(bad).toMatchObject({ availability: 'unavailable', recordedAt: now.toISOString(), failure });
    // The failed entry stays (the console shows which target has no evidence and why); what is not an entry goes.
    expect(normalizeEvidence(bad, [{ instanceId: 1 }, { instanceId: 2 }], now).entries).toEqual([entry(1), entry(2, 'failed')]);
    expect(normalizeEvidence({ ...bad, entries: [entry(1), null, { instanceId: 3, status: 'odd' }] }, [{ instanceId: 1 }], now).entries).toEqual([entry(1)]);
  });

  it('treats legacy, corrupt, partial and target-mismatched evidence as unavailable', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    const targets = [{ instanceId: 1 }, { instanceId: 2 }];
    const good = assembleEvidence([entry(1), entry(2)], now);
    expect(normalizeEvidence(good, targets, now).availability).toBe('available');
    expect(normalizeEvidence({ ...good, version: 0 }, targets, now).availability).toBe('unavailable');
    expect(normalizeEvidence('garbage', targets, now).availability).toBe('unavailable');
    expect(normalizeEvidence(null, targets, now).availability).toBe('unavailable');
    expect(normalizeEvidence({ ...good, entries: [entry(1)] }, targets, now).availability).toBe('unavailable');
    expect(normalizeEvidence({ ...good, entries: [entry(1), entry(3)] }, targets, now).availability).toBe('unavailable');
    expect(normalizeEvidence({ ...good, generatedAt: undefined }, targets, now).availability).toBe('unavailable');
  });

  it('blocks proceeding without available, fresh evidence', () => {
    const targets = [{ instanceId: 1 }];
    const at = Date.parse('2026-11-21T10:00:00Z');
    const evidence = assembleEvidence([entry(1)], new Date(at));
    expect(proceedBlocker(evidence, targets, at + 1000, 60_000)).toBeNull();
    expect(proceedBlocker(evidence, targets, at + 61_000, 60_000)).toContain('older than its staleness limit');
    expect(proceedBlocker(null, targets, at, 60_000)).toContain('has not been built');
    expect(proceedBlocker(assembleEvidence([entry(1, 'failed')], new Date(at)), targets, at, 60_000)).toContain('unavailable');
  });

  it('batches the remaining targets from the index reached', () => {
    expect(batchesFrom([1, 2, 3, 4, 5], 2, 0)).toEqual([{ start: 0, items: [1, 2] }, { start: 2, items: [3, 4] }, { start: 4, items: [5] }]);
    expect(batchesFrom([1, 2, 3, 4, 5], 2, 3)).toEqual([{ start: 3, items: [4, 5] }]);
    expect(batchesFrom([1, 2], 5, 2)).toEqual([]);
  });
});
