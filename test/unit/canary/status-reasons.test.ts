import type { TargetResult } from '../../../src/domain/canary';
import { precheckRefusal, type PendingChanges } from '../../../src/domain/canary/precheck';
import { canaryAbortReason, canaryPartialWarning, failureClause, gateDeclinedReason, targetsFailedReason } from '../../../src/domain/canary/status-reason';
import { failureEvidence } from '../../../src/domain/failure-evidence';

const counts = (create = 0, update = 0, del = 0, unchanged = 7) => ({ create, update, delete: del, unchanged });
const read = (instanceId: number, name: string, changes: ReturnType<typeof counts>): PendingChanges => ({ instanceId, instanceName: name, readable: true, counts: changes });
const unread = (instanceId: number, name: string): PendingChanges => ({ instanceId, instanceName: name, readable: false, failure: 'unreachable' });

describe('the pre-check of a rollout start', () => {
  it('lets a canary with changes start, and a canary that cannot be read (its sync fails with evidence)', () => {
    expect(precheckRefusal(read(1, 'radarr-1', counts(1)), [])).toBeNull();
    expect(precheckRefusal(read(1, 'radarr-1', counts(0, 0, 1)), [])).toBeNull();
    expect(precheckRefusal(unread(1, 'radarr-1'), [])).toBeNull();
  });

  it('refuses a canary in sync, names the targets with changes and suggests the one with the most', () => {
    const refusal = precheckRefusal(read(1, 'radarr-1', counts()), [read(2, 'radarr-2', counts(1)), read(3, 'radarr-3', counts()), read(4, 'radarr-4', counts(3, 2)), unread(5, 'radarr-5')]);
    expect(refusal).toEqual({
      code: 'canary_in_sync',
      message:
        'The canary radarr-1 has nothing to change in the selected sections, so the rollout would be aborted with nothing verified. 2 of 4 targets have changes: radarr-4 (5 changes), radarr-2 (1 change). ' +
        'Use one of them as the canary, e.g. canaryInstanceId 4 (radarr-4, the most changes), or send allowInSyncCanary: true to start anyway (the rollout then ends aborted, its canary skipped).',
      targetsWithChanges: [
        { instanceId: 4, instanceName: 'radarr-4', changes: 5, counts: counts(3, 2) },
        { instanceId: 2, instanceName: 'radarr-2', changes: 1, counts: counts(1) },
      ],
      unreadTargets: [{ instanceId: 5, instanceName: 'radarr-5' }],
      suggestedCanaryInstanceId: 4,
    });
  });

  it('keeps the request order between targets with as many changes, and counts the names past five', () => {
    const targets = Array.from({ length: 7 }, (_, i) => read(10 + i, `t${i}`, counts(2)));
    const refusal = precheckRefusal(read(1, 'c', counts()), targets)!;
    expect(refusal.suggestedCanaryInstanceId).toBe(10);
    expect(refusal.targetsWithChanges.map((t) => t.instanceId)).toEqual([10, 11, 12, 13, 14, 15, 16]);
    expect(refusal.message).toContain('7 of 7 targets have changes: t0 (2 changes), t1 (2 changes), t2 (2 changes), t3 (2 changes), t4 (2 changes) and 2 more.');
  });

  it('says "its target" when the fleet in sync has one target', () => {
    expect(precheckRefusal(read(1, 'radarr-1', counts()), [read(2, 'radarr-2', counts())])?.message).toBe(
      'Nothing to roll out: the canary radarr-1 and its target already match the desired configuration in the selected sections. Start anyway by sending allowInSyncCanary: true (the rollout then ends aborted, its canary skipped).',
    );
  });

  it('says the whole fleet is in sync when no target has changes either', () => {
    expect(precheckRefusal(read(1, 'radarr-1', counts()), [read(2, 'radarr-2', counts()), read(3, 'radarr-3', counts())])).toEqual({
      code: 'fleet_in_sync',
      message:
        'Nothing to roll out: the canary radarr-1 and all 2 targets already match the desired configuration in the selected sections. Start anyway by sending allowInSyncCanary: true (the rollout then ends aborted, its canary skipped).',
      targetsWithChanges: [],
      unreadTargets: [],
      suggestedCanaryInstanceId: null,
    });
  });

  it('does not call the fleet in sync when some targets could not be read', () => {
    const refusal = precheckRefusal(read(1, 'radarr-1', counts()), [read(2, 'radarr-2', counts()), unread(3, 'radarr-3')])!;
    expect(refusal).toMatchObject({ code: 'canary_in_sync', targetsWithChanges: [], unreadTargets: [{ instanceId: 3 }], suggestedCanaryInstanceId: null });
    expect(refusal.message).toBe(
      'The canary radarr-1 has nothing to change in the selected sections, so the rollout would be aborted with nothing verified, and none of the targets that could be read has changes; 1 could not be read: radarr-3. ' +
        'Check those instances (POST /instances/{id}/test) and start again, or send allowInSyncCanary: true to start anyway (the rollout then ends aborted, its canary skipped).',
    );
  });
});

describe('why a rollout ended aborted or failed', () => {
  const result = (name: string, status: TargetResult['status'], failure: TargetResult['diagnostics']): TargetResult => ({ instanceId: 1, instanceName: name, status, summary: '', diagnostics: failure, previewId: null, runId: null });
  const executionFailed = (cause: 'rejected' | 'timeout' | null) => ({ failure: { code: 'executionFailed' as const, message: 'The apply run did not complete successfully: …', recoveryAction: '…', cause } });

  it('explains a skipped canary', () => {
    expect(canaryAbortReason('radarr-1', 'skipped', null, 3)).toEqual({
      code: 'canary_in_sync',
      text: 'Aborted: the canary (radarr-1) had nothing to change, so there was nothing to verify; the 3 remaining instances were left untouched. Start a rollout with a canary that has changes.',
    });
    expect(canaryAbortReason('radarr-1', 'skipped', null, 1).text).toContain('; the remaining instance was left untouched.');
  });

  it('explains a failed or partial canary from its failure code, never from free text', () => {
    expect(canaryAbortReason('radarr-1', 'failed', failureEvidence('sectionErrors'), 2)).toEqual({
      code: 'canary_failed',
      text: 'Aborted: the canary (radarr-1) failed to sync (one or more sections failed to generate); the 2 remaining instances were left untouched.',
    });
    expect(canaryAbortReason('radarr-1', 'partial', executionFailed('rejected').failure, 2)).toEqual({
      code: 'canary_partial',
      text: 'Aborted: the canary (radarr-1) synced only partly (the app instance rejected the request) and partialPolicy is abort; the 2 remaining instances were left untouched.',
    });
    const forged = { code: 'executionFailed' as const, message: 'ECONNREFUSED 10.0.0.7:7878 secret-key', recoveryAction: '', cause: null };
    expect(canaryAbortReason('radarr-1', 'failed', forged, 2).text).toBe('Aborted: the canary (radarr-1) failed to sync (the apply run did not complete successfully); the 2 remaining instances were left untouched.');
    expect(failureClause(null)).toBe('the sync failed');
    expect(failureClause({ code: 'no-such-code' as never })).toBe('the sync failed');
  });

  it('explains a gate declined by the operator', () => {
    expect(gateDeclinedReason(3)).toEqual({ code: 'gate_declined', text: 'Aborted at the gate by the operator; the 3 remaining instances were left untouched.' });
  });

  it('counts the failed targets and names the first three with why', () => {
    const results = [
      result('radarr-2', 'success', null),
      result('radarr-3', 'partial', executionFailed('rejected')),
      result('radarr-4', 'failed', { failure: failureEvidence('stale') }),
      result('radarr-5', 'failed', executionFailed('timeout')),
      result('radarr-6', 'failed', executionFailed(null)),
      result('radarr-7', 'failed', { failure: null }),
    ];
    expect(targetsFailedReason(results)).toEqual({
      code: 'targets_failed',
      text:
        'Failed: 5 of 6 targets failed (radarr-3 (partly synced): the app instance rejected the request; radarr-4: the preview is too old to apply safely; ' +
        'radarr-5: the app instance did not respond in time; and 2 more).',
    });
    expect(targetsFailedReason(results.slice(0, 2)).text).toBe('Failed: 1 of 2 targets failed (radarr-3 (partly synced): the app instance rejected the request).');
  });
});

describe('an unverified canary or target (verified apply)', () => {
  const unverified = { status: 'unverified' as const, checked: 12, mismatchCount: 2, fields: 'Bluray-1080p maxSize, WEBDL-1080p maxSize', unreadable: null };
  const notApplied = { ...failureEvidence('notApplied'), message: 'The app accepted the write but did not store this value. Verification after the apply: 2 fields did not land (Bluray-1080p maxSize, WEBDL-1080p maxSize).' };

  it('aborts under partialPolicy abort with its own code, naming the fields', () => {
    expect(canaryAbortReason('radarr-1', 'partial', notApplied, 3, unverified)).toEqual({
      code: 'canary_unverified',
      text: 'Aborted: the canary (radarr-1) was not verified (the app did not store 2 fields (Bluray-1080p maxSize, WEBDL-1080p maxSize)) and partialPolicy is abort; the 3 remaining instances were left untouched.',
    });
    expect(canaryAbortReason('radarr-1', 'partial', failureEvidence('verificationUnreadable'), 1, { ...unverified, mismatchCount: 0, fields: '', unreadable: 'timeout' }).text).toBe(
      'Aborted: the canary (radarr-1) was not verified (its changes could not be read back: the app instance did not respond in time) and partialPolicy is abort; the remaining instance was left untouched.',
    );
    // A partial canary that stopped part-way keeps its reason.
    expect(canaryAbortReason('radarr-1', 'partial', failureEvidence('serverError'), 1, null).code).toBe('canary_partial');
  });

  it('waits at the gate with a warning naming the fields under partialPolicy gate', () => {
    expect(canaryPartialWarning(unverified)).toBe("The canary's apply was not verified: the app did not store 2 fields (Bluray-1080p maxSize, WEBDL-1080p maxSize). Review its run before proceeding.");
    expect(canaryPartialWarning(null)).toBe('The canary sync was partial: some writes failed. Review its diagnostics before proceeding.');
  });

  it('names an unverified target as not verified among the failed targets', () => {
    const result: TargetResult = { instanceId: 2, instanceName: 'radarr-2', status: 'partial', summary: '', diagnostics: { failure: notApplied }, previewId: 1, runId: 1 };
    expect(targetsFailedReason([result]).text).toBe('Failed: 1 of 1 targets failed (radarr-2 (not verified): the app accepted the write but did not store this value).');
  });
});
