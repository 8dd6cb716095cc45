import { startWorkflow } from '../../src/services/workflow-runner';
import { instanceTestWorkflow } from '../../src/workflows/contracts';
import { addInstance, linkDatabase, previewUntil, SAMPLE_PCD } from '../helpers/fleet';
import { startArrgo, type Harness } from '../helpers/harness';

/**
 * With API and worker in one process (role all), starts that ask for it (sync previews) hand their
 * first workflow task to the in-process worker in the start's answer (Temporal's eager workflow
 * start); an API without a local worker starts workflows the usual way.
 */
describe('eager workflow start', () => {
  let h: Harness;
  let api: Harness | undefined;

  beforeAll(async () => {
    h = await startArrgo();
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
  });

  it('hands the first workflow task to the in-process worker, and falls back to the usual start without one', async () => {
    const gateway = h.service.temporal;
    expect(gateway.localWorkerClient).toBeDefined();
    const eager = await startWorkflow(gateway, instanceTestWorkflow, { args: [424242], eager: true });
    expect(eager.eagerlyStarted).toBe(true);
    // No local worker known: the same request is an ordinary start, picked up from the task queue.
    const usual = await startWorkflow({ client: gateway.client, taskQueue: gateway.taskQueue }, instanceTestWorkflow, { args: [424242], eager: true });
    expect(usual.eagerlyStarted).toBe(false);
    // Not asked for: ordinary as well.
    const plain = await startWorkflow(gateway, instanceTestWorkflow, { args: [424242] });
    expect(plain.eagerlyStarted).toBe(false);
    // All three ran to the same end (the instance does not exist).
    const outcomes = await Promise.all([eager, usual, plain].map((handle) => handle.result().then(() => 'completed', (error: Error) => error.name)));
    expect(new Set(outcomes).size).toBe(1);
  });

  it('starts a preview through the API eagerly, and generates it', async () => {
    const databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
    const radarr = await addInstance(h, 'movie_app', { name: 'radarr-eager', databaseId });
    // What the start through the in-process worker's client answered.
    const localStarts = h.service.temporal.localWorkerClient!.workflow;
    const start = localStarts.start.bind(localStarts);
    const starts: Promise<{ workflowId: string; eagerlyStarted: boolean }>[] = [];
    const spy = jest.spyOn(localStarts, 'start').mockImplementation((...args: Parameters<typeof start>) => {
      const started = start(...args);
      starts.push(started);
      return started;
    });
    try {
      const created = await h.post('/sync/previews', { instanceId: radarr.id });
      expect(created.status).toBe(202);
      expect(created.body).toMatchObject({ status: 'generating', workflowId: `${h.taskQueue}-sync-${created.body.id}` });
      expect(starts).toHaveLength(1);
      expect(await starts[0]).toMatchObject({ workflowId: created.body.workflowId, eagerlyStarted: true });
      const ready = await previewUntil(h, created.body.id, ['ready']);
      expect(ready.body.counts.create).toBeGreaterThan(0);
    } finally {
      spy.mockRestore();
      await radarr.emulator.close();
    }
  });

  it('an API without a worker in its process starts no workflow eagerly', async () => {
    api = await startArrgo({ role: 'api' });
    expect(api.service.worker).toBeNull();
    expect(api.service.temporal.localWorkerClient).toBeUndefined();
  });
});
