import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPostgresBin, startTempCluster, type TempCluster } from '../setup/postgres-cluster';
import { freeStablePort } from '../setup/ports';
import { addInstance, linkDatabase, SAMPLE_PCD, startMovieRollout, type FleetInstance } from '../helpers/fleet';
import { eventually, startArrgo, type Harness } from '../helpers/harness';

const bin = findPostgresBin();
const describeWithPostgres = bin ? describe : describe.skip;
if (!bin) console.warn('[canary-start-database-down] skipped: PostgreSQL (initdb and pg_ctl) is not on this machine');

/**
 * The chaos soak (seed 2) saw a rollout start answered 503 after its workflow had started: the
 * answer was built from a read that PostgreSQL, restarting, refused. The client never learned the
 * rollout's id, so nobody passed its gate. PostgreSQL stops here the moment the real start returns.
 */
describeWithPostgres('a rollout whose workflow started is answered 201 even if the database goes down right after', () => {
  let cluster: TempCluster;
  let h: Harness;
  const fleet: FleetInstance[] = [];

  beforeAll(async () => {
    cluster = startTempCluster(bin!, await freeStablePort(), { crashSafe: true });
    h = await startArrgo({ db: 'postgresql', existing: { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-rollout-dbdown-')), databaseUrl: cluster.url } });
    const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    for (const name of ['canary', 'target']) fleet.push(await addInstance(h, 'movie_app', { name, databaseId }));
  });
  afterAll(async () => {
    try {
      cluster?.start();
    } catch {
      // already running
    }
    await h?.close();
    for (const instance of fleet) await instance.emulator.close();
    try {
      cluster?.stop();
    } catch {
      // a failed test may leave it stopped
    }
  });

  it('answers with the stored rollout, which is there and running once the database is back', async () => {
    const workflows = h.service.temporal.client.workflow;
    const realStart = workflows.start.bind(workflows);
    workflows.start = (async (...args: Parameters<typeof realStart>) => {
      const handle = await realStart(...args);
      if (args[1].workflowId.startsWith('canary-rollout-')) cluster.crash();
      return handle;
    }) as typeof workflows.start;

    const [canary, target] = fleet;
    const started = await startMovieRollout(h, canary, [target], { sections: ['qualityProfiles'], partialPolicy: 'gate', allowInSyncCanary: true });
    workflows.start = realStart;
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      status: 'canary_running',
      canaryStatus: 'running',
      canary: { instanceId: canary.id, instanceName: 'canary', previewId: null, diagnostics: null },
      targets: [{ instanceId: target.id, instanceName: 'target' }],
      sections: ['qualityProfiles'],
      remainingPreview: null,
      rolloutIndex: 0,
      statusReasonCode: null,
      workflowId: `canary-rollout-${started.body.id}`,
    });

    cluster.start();
    const stored = await eventually(() => h.get(`/canary/rollouts/${started.body.id}`), (r) => r.status === 200, 60_000, 250);
    expect(stored.body).toMatchObject({ id: started.body.id, workflowId: started.body.workflowId, createdAt: started.body.createdAt });
    const described = await h.service.temporal.client.workflow.getHandle(started.body.workflowId).describe();
    expect(described.status.name).toBe('RUNNING');
  });
});
