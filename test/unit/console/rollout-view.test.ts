import type { components } from '../../../src/client';
import { batches, describeRolloutChanges, targetEvidence } from '../../../web/src/pages/rollouts/rollout-view';

type Rollout = components['schemas']['CanaryRollout'];

const counts = (create: number, update = 0) => ({ create, update, delete: 0, unchanged: 3 });
const preview = (instanceId: number, create: number) => ({ instanceId, instanceName: `r${instanceId}`, counts: counts(create), previewId: 100 + instanceId });

function rollout(patch: Partial<Rollout> = {}): Rollout {
  return {
    id: 7,
    arrType: 'movie_app',
    status: 'awaiting_confirmation',
    canaryStatus: 'success',
    canary: { instanceId: 1, instanceName: 'r1', previewId: 9, diagnostics: null },
    sections: ['qualityProfiles'],
    partialPolicy: 'gate',
    batchSize: 2,
    targets: [2, 3, 4].map((id) => ({ instanceId: id, instanceName: `r${id}` })),
    remainingPreview: { version: 1, availability: 'available', generatedAt: '2026-01-01T10:00:00.000Z', previews: [preview(2, 6), preview(3, 6), preview(4, 1)] },
    rolloutIndex: 0,
    rolloutResults: [],
    warning: null,
    statusReasonCode: null,
    statusReason: null,
    trigger: 'manual',
    stateToken: 'token-1',
    workflowId: 'canary-rollout-7',
    createdAt: '2026-01-01T09:59:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    finishedAt: null,
    ...patch,
  } as Rollout;
}

const result = (instanceId: number, status: 'success' | 'failed') => ({ instanceId, instanceName: `r${instanceId}`, status, summary: status, diagnostics: null, previewId: null, runId: null });

describe('the rollout page reads a rollout', () => {
  it('puts the targets in their batches, each with where it stands', () => {
    const view = (r: Rollout) => batches(r).map((b) => [b.number, b.targets.map((t) => `${t.instanceName} ${t.progress}`)]);
    expect(view(rollout())).toEqual([
      [1, ['r2 waiting', 'r3 waiting']],
      [2, ['r4 waiting']],
    ]);
    expect(view(rollout({ status: 'rolling_out', rolloutIndex: 2, rolloutResults: [result(2, 'success'), result(3, 'failed')] }))).toEqual([
      [1, ['r2 success', 'r3 failed']],
      [2, ['r4 applying']],
    ]);
    expect(view(rollout({ status: 'aborted', finishedAt: '2026-01-01T10:01:00.000Z' }))[1]).toEqual([2, ['r4 untouched']]);
  });

  it("finds each target's evidence: its preview, its failed preview, or none", () => {
    const unavailable = rollout({
      remainingPreview: { version: 1, availability: 'unavailable', recordedAt: '2026-01-01T10:00:00.000Z', failure: null, diagnosticPreviews: [preview(2, 6)], failedPreviews: [{ ...preview(3, 0), failure: null }] } as unknown as Rollout['remainingPreview'],
    });
    expect([2, 3, 4].map((id) => targetEvidence(unavailable, id).kind)).toEqual(['ready', 'failed', 'none']);
  });

  it('says what changed since a decision was opened: the stage, the rebuilt evidence and each changed target, the results', () => {
    const before = rollout();
    expect(describeRolloutChanges(before, rollout({ stateToken: 'token-2' }))).toEqual(['another decision or an evidence refresh was made meanwhile']);
    const rebuilt = rollout({
      stateToken: 'token-2',
      remainingPreview: { version: 1, availability: 'available', generatedAt: '2026-01-01T10:05:00.000Z', previews: [preview(2, 6), preview(3, 2), preview(4, 1)] },
    });
    const changes = describeRolloutChanges(before, rebuilt);
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatch(/^its evidence was rebuilt at /);
    expect(changes[1]).toBe('r3 now has 2 to create (was 6 to create)');
    const aborted = rollout({ status: 'aborted', statusReason: 'Aborted at the gate by the operator.', finishedAt: '2026-01-01T10:01:00.000Z' });
    expect(describeRolloutChanges(before, aborted)).toEqual(['it moved from awaiting confirmation to aborted (Aborted at the gate by the operator.)']);
    const rolling = rollout({ status: 'rolling_out', rolloutResults: [result(2, 'success')] });
    expect(describeRolloutChanges(before, rolling)).toEqual(['it moved from awaiting confirmation to rolling out', '1 more target was synced']);
  });
});
