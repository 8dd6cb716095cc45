import { CanaryRollout, DriftResult, HealthSnapshot, Instance, NotificationEvent, SyncRun } from '../../src/persistence/entities';
import { FLEET_OVERVIEW_INSTANCES_MAX } from '../../src/services/fleet/fleet-overview';
import { dbKinds } from '../helpers/databases';
import { startArrgo, type Harness } from '../helpers/harness';

const T = (minute: number) => new Date(Date.UTC(2026, 0, 10, 12, minute, 0));

function instance(em: ReturnType<Harness['service']['orm']['em']['fork']>, name: string, extra: Partial<Instance> = {}) {
  return em.create(Instance, { name, arrType: 'movie_app', baseUrl: 'http://127.0.0.1:1', apiKeySealed: 'sealed', enabled: true, tags: [], createdAt: T(0), updatedAt: T(0), ...extra });
}

function run(instanceId: number | null, instanceName: string, status: SyncRun['status'], minute: number, error: string | null = null) {
  return {
    instanceId,
    instanceName,
    arrType: 'movie_app' as const,
    trigger: 'manual',
    sectionsAttempted: ['qualityProfiles'],
    sectionsKey: ',qualityProfiles,',
    status,
    sectionsRun: 1,
    itemsSynced: 1,
    failureCount: status === 'success' ? 0 : 1,
    entityChangeCount: 1,
    entityOutcomeCount: 1,
    outcomes: [],
    verification: null,
    workflowId: `wf-sync-${minute}`,
    startedAt: T(minute),
    finishedAt: T(minute + 1),
    createdAt: T(minute),
    error,
  };
}

function rollout(canary: Instance, status: CanaryRollout['status'], minute: number, extra: Partial<Pick<CanaryRollout, 'statusReasonCode' | 'statusReason' | 'finishedAt' | 'updatedAt'>> = {}) {
  return {
    arrType: 'movie_app' as const,
    canaryInstanceId: canary.id,
    canaryInstanceName: canary.name,
    targets: [
      { instanceId: 900, instanceName: 't1' },
      { instanceId: 901, instanceName: 't2' },
    ],
    sections: ['qualityProfiles'],
    partialPolicy: 'gate' as const,
    batchSize: 1,
    evidenceMaxAgeSeconds: 600,
    status,
    canaryStatus: 'success' as const,
    canaryDiagnostics: null,
    remainingPreview: null,
    rolloutIndex: 0,
    trigger: 'manual',
    rolloutResults: [],
    stateToken: `token-${minute}`,
    workflowId: `canary-rollout-${minute}`,
    createdAt: T(minute),
    updatedAt: T(minute),
    ...extra,
  };
}

/** Three instances with drift results, health snapshots, sync runs and rollouts at known times. */
async function seedFleet(h: Harness) {
  const em = h.service.orm.em.fork();
  const alpha = instance(em, 'alpha', { verificationStatus: 'verified', verificationCheckedAt: T(1), verificationAppVersion: '5.1.0' });
  const beta = instance(em, 'beta', { verificationStatus: 'unverified', verificationReason: 'unreachable', enabled: false });
  const gamma = instance(em, 'gamma');
  await em.flush();
  const driftRow = { drift: [], missing: [], unmanaged: [], managedTotal: 0, issues: [], failureStreak: 0 };
  em.create(DriftResult, { ...driftRow, instanceId: alpha.id, status: 'drifted', checkedAt: T(30), detectedVersion: '5.2.0', counts: { drifted: 2, missing: 1, unmanaged: 0 } });
  em.create(DriftResult, { ...driftRow, instanceId: beta.id, status: 'unreachable', checkedAt: T(31), counts: { drifted: 0, missing: 0, unmanaged: 0 } });
  // alpha: an older healthy snapshot, then the newest (attention) one.
  for (const [minute, band, score] of [[10, 'healthy', 95], [20, 'attention', 71]] as const) {
    em.create(HealthSnapshot, { instanceId: alpha.id, generatedAt: T(minute), engineVersion: '1', trigger: 'schedule', band, score, result: null, evidenceRecorded: false });
  }
  em.create(HealthSnapshot, { instanceId: beta.id, generatedAt: T(15), engineVersion: '1', trigger: 'schedule', band: 'unknown', score: null, result: null, evidenceRecorded: false });
  // alpha: failed, then a newer success; beta: partial; a run of a deleted instance (failed).
  em.create(SyncRun, run(alpha.id, 'alpha', 'failed', 2, 'The app instance could not be reached'));
  em.create(SyncRun, run(alpha.id, 'alpha', 'success', 40));
  em.create(SyncRun, run(beta.id, 'beta', 'partial', 41, 'The apply stopped after 3 of 5 changes'));
  em.create(SyncRun, run(null, 'deleted', 'failed', 42, 'The app rejected the API key'));
  // Rollouts: two at the gate (one with its gate event), one failed by its targets, one declined by the operator.
  const waitingWithEvent = em.create(CanaryRollout, rollout(alpha, 'awaiting_confirmation', 50));
  const waitingOld = em.create(CanaryRollout, rollout(gamma, 'awaiting_confirmation', 45, { updatedAt: T(46) }));
  em.create(CanaryRollout, rollout(alpha, 'failed', 43, { statusReasonCode: 'targets_failed', statusReason: 'Failed: 1 of 2 targets failed to sync', finishedAt: T(44) }));
  em.create(CanaryRollout, rollout(gamma, 'aborted', 47, { statusReasonCode: 'gate_declined', statusReason: 'Aborted at the gate by the operator', finishedAt: T(48) }));
  await em.flush();
  em.create(NotificationEvent, {
    id: `rollout:${waitingWithEvent.id}:gate`,
    type: 'rollout.awaiting_gate',
    severity: 'info',
    subjectKey: `rollout:${waitingWithEvent.id}`,
    payload: {} as NotificationEvent['payload'],
    occurredAt: T(52),
    coalescedCount: 0,
  });
  await em.flush();
  return { alpha, beta, gamma, waitingWithEvent, waitingOld };
}

for (const db of dbKinds()) {
  describe(`GET /fleet/overview (${db})`, () => {
    let h: Harness;

    beforeAll(async () => {
      h = await startArrgo({ db, env: { TEMPORAL_UI_URL: 'http://127.0.0.1:8233' } });
    });
    afterAll(async () => h?.close());

    it('answers an empty fleet with zero counts', async () => {
      const res = await h.get('/fleet/overview');
      expect(res.status).toBe(200);
      expect([res.body.instancesTotal, res.body.instances, res.body.gate, res.body.recentFailures]).toEqual([0, [], [], []]);
      expect(res.body.counts.drift['never-checked']).toBe(0);
    });

    it("gives every instance's version, drift, newest health and newest sync; counts; the gate with its wait; recent failures", async () => {
      const { alpha, beta, gamma, waitingWithEvent, waitingOld } = await seedFleet(h);
      const res = await h.get('/fleet/overview');
      expect(res.status).toBe(200);
      const body = res.body;
      expect(body.instancesTotal).toBe(3);
      expect(body.instances.map((i: { name: string }) => i.name)).toEqual(['alpha', 'beta', 'gamma']);
      const [a, b, g] = body.instances;
      expect(a).toEqual({
        id: alpha.id,
        name: 'alpha',
        arrType: 'movie_app',
        enabled: true,
        // The drift check (minute 30) is newer than the connection test (minute 1).
        version: '5.2.0',
        verification: 'verified',
        drift: { status: 'drifted', checkedAt: T(30).toISOString(), counts: { drifted: 2, missing: 1, unmanaged: 0 } },
        health: { band: 'attention', score: 71, generatedAt: T(20).toISOString() },
        lastSync: { runId: expect.any(Number), status: 'success', trigger: 'manual', startedAt: T(40).toISOString(), finishedAt: T(41).toISOString(), error: null, workflowUrl: expect.stringContaining('/workflows/wf-sync-40') },
      });
      expect([b.enabled, b.version, b.verification, b.drift.status, b.health, b.lastSync.status, b.lastSync.error]).toEqual([
        false,
        null,
        'unverified',
        'unreachable',
        { band: 'unknown', score: null, generatedAt: T(15).toISOString() },
        'partial',
        'The apply stopped after 3 of 5 changes',
      ]);
      expect([g.id, g.drift, g.health, g.lastSync]).toEqual([gamma.id, { status: 'never-checked', checkedAt: null, counts: null }, null, null]);
      expect(body.counts).toEqual({
        enabled: 2,
        disabled: 1,
        drift: { 'in-sync': 0, drifted: 1, unreachable: 1, unauthorized: 0, error: 0, 'never-checked': 1 },
        health: { healthy: 0, attention: 1, 'needs-review': 0, unknown: 1, none: 1 },
        lastSync: { running: 0, success: 1, partial: 1, failed: 0, never: 1 },
      });

      // The gate: the longest-waiting first; a rollout with a gate event waits since the event.
      const now = new Date(body.generatedAt).getTime();
      expect(body.gate.map((w: { rolloutId: number }) => w.rolloutId)).toEqual([waitingOld.id, waitingWithEvent.id]);
      expect(body.gate[1]).toEqual({
        rolloutId: waitingWithEvent.id,
        arrType: 'movie_app',
        canaryInstanceId: alpha.id,
        canaryInstanceName: 'alpha',
        targetCount: 2,
        waitingSince: T(52).toISOString(),
        waitedSeconds: Math.round((now - T(52).getTime()) / 1000),
        workflowUrl: `http://127.0.0.1:8233/namespaces/${h.namespace}/workflows/canary-rollout-50`,
      });
      expect(body.gate[0].waitingSince).toBe(T(46).toISOString());

      // Failures, newest first (by when they ended): the targets-failed rollout, the deleted
      // instance's run, beta's partial run, alpha's failed run; not the operator's abort at the gate.
      expect(body.recentFailures.map((f: { kind: string; instanceName: string; status: string; code: string | null }) => [f.kind, f.instanceName, f.status, f.code])).toEqual([
        ['rollout', 'alpha', 'failed', 'targets_failed'],
        ['sync', 'deleted', 'failed', null],
        ['sync', 'beta', 'partial', null],
        ['sync', 'alpha', 'failed', null],
      ]);
      expect(body.recentFailures[0]).toMatchObject({ message: 'Failed: 1 of 2 targets failed to sync', at: T(44).toISOString(), workflowUrl: expect.stringContaining('canary-rollout-43') });
      expect(body.recentFailures[1]).toMatchObject({ instanceId: null, message: 'The app rejected the API key', at: T(43).toISOString() });
    });

    it(`lists at most ${FLEET_OVERVIEW_INSTANCES_MAX} instances and says how many exist`, async () => {
      const em = h.service.orm.em.fork();
      const existing = await em.count(Instance, {});
      for (let i = existing; i < FLEET_OVERVIEW_INSTANCES_MAX + 2; i++) instance(em, `bulk-${String(i).padStart(4, '0')}`);
      await em.flush();
      const res = await h.get('/fleet/overview');
      expect([res.status, res.body.instancesTotal, res.body.instances.length]).toEqual([200, FLEET_OVERVIEW_INSTANCES_MAX + 2, FLEET_OVERVIEW_INSTANCES_MAX]);
      expect(res.body.instances[0].name).toBe('alpha');
    });

    it('needs the API key', async () => {
      const res = await h.request('GET', '/fleet/overview', undefined, { auth: false });
      expect(res.status).toBe(401);
    });
  });
}
