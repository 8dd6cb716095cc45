import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { Context } from '@temporalio/activity';
import { NativeConnection, Worker } from '@temporalio/worker';
import { pcdPullRequestedSignal, pcdPullWorkflow } from '../../src/workflows/contracts';
import { testNamespace } from '../helpers/harness';

/**
 * A pull request that joins a running pull must get what was committed before it: the chaos soak
 * (seed 1) saw a request made after a commit answered `ready` by a pull that had fetched before it.
 * The workflow runs on the test run's Temporal server; its activities are stand-ins that count
 * fetches and hold the first one open, so the join lands while the fetch is running.
 */
describe('a pull request that joins a running pull', () => {
  let connection: NativeConnection;
  let clientConnection: Connection;
  let worker: Worker;
  let running: Promise<void>;
  const taskQueue = `pull-join-${randomUUID().slice(0, 8)}`;
  const commits: string[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let fetches = 0;
  /** Workflow ids whose fetches each send a request of their own, as a stream of requests would. */
  const askedDuringFetch = new Map<string, number>();
  let client: Client;

  beforeAll(async () => {
    connection = await NativeConnection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS! });
    worker = await Worker.create({
      connection,
      namespace: testNamespace(),
      taskQueue,
      workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! },
      activities: {
        pcdFetchSource: async () => {
          fetches++;
          const { workflowId } = Context.current().info.workflowExecution!;
          const left = askedDuringFetch.get(workflowId) ?? 0;
          if (left > 0) {
            askedDuringFetch.set(workflowId, left - 1);
            await client.workflow.getHandle(workflowId).signal(pcdPullRequestedSignal);
          }
          const commit = commits[commits.length - 1];
          if (fetches === 1) await held;
          return { ok: true, commit };
        },
        pcdImportOps: async () => ({ ok: true, inserted: 1, removed: 0, kept: 0 }),
        pcdRebuildCache: async () => ({ totalOps: 1, failed: 0, conflicts: 0, cacheStatus: 'ready' }),
        pcdRecordFailure: async () => undefined,
      },
    });
    running = worker.run();
    clientConnection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS! });
    client = new Client({ connection: clientConnection, namespace: testNamespace() });
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await connection?.close();
    await clientConnection?.close();
  });

  const request = (workflowId: string) => client.workflow.signalWithStart(pcdPullWorkflow, { taskQueue, workflowId, args: [1], signal: pcdPullRequestedSignal });

  it('fetches again before it completes, so the answer includes the commit the request followed', async () => {
    const workflowId = `${taskQueue}-pcd-pull-1`;
    commits.push('c1');
    const first = await request(workflowId);
    for (let i = 0; i < 100 && fetches === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(fetches).toBe(1);
    commits.push('c2');
    const joined = await request(workflowId);
    expect(joined.signaledRunId).toBe(first.signaledRunId);
    release();
    expect(await joined.result()).toMatchObject({ status: 'ready', commit: 'c2' });
    expect(fetches).toBe(2);
  });

  it('fetches once when nobody joins', async () => {
    fetches = 1; // the hold applies to the first fetch of the file only
    commits.push('c3');
    const alone = await request(`${taskQueue}-pcd-pull-2`);
    expect(await alone.result()).toMatchObject({ status: 'ready', commit: 'c3' });
    expect(fetches).toBe(2);
  });

  it('carries on as a new run after ten rounds while requests keep arriving, and answers from that run', async () => {
    const workflowId = `${taskQueue}-pcd-pull-3`;
    askedDuringFetch.set(workflowId, 12);
    const before = fetches;
    commits.push('c4');
    const started = await request(workflowId);
    expect(await started.result()).toMatchObject({ status: 'ready', commit: 'c4' });
    expect(fetches - before).toBe(13);
    const firstRun = await client.workflow.getHandle(workflowId, started.signaledRunId).describe();
    expect(firstRun.status.name).toBe('CONTINUED_AS_NEW');
  });

  it('replays a pull recorded before requests were signalled (one round, no signal handler in its history)', async () => {
    const bundle = process.env.TEST_WORKFLOW_BUNDLE;
    if (!bundle) throw new Error('TEST_WORKFLOW_BUNDLE is not set (the jest global setup builds it)');
    const history = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'pcd-pull-before-requested-signal.history.json'), 'utf8'));
    const scheduled = history.events.flatMap((e: { activityTaskScheduledEventAttributes?: { activityType?: { name?: string } } }) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name] : []));
    expect(scheduled).toEqual(['pcdFetchSource', 'pcdImportOps', 'pcdRebuildCache']);
    await Worker.runReplayHistory({ workflowBundle: { codePath: bundle } }, history, 'pcd-pull-before-requested-signal');
  });
});
