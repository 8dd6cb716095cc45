import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { parsePrometheusText, sampleSum } from '../helpers/prometheus';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';
import { freePort } from '../setup/ports';

/**
 * A worker killed (SIGKILL) while the receiver holds its request: the attempt is taken over by a
 * new worker once its start-to-close timeout passes, with the same Idempotency-Key, and the
 * delivery ends delivered once. A receiver that deduplicates on the key processes it once.
 */
describe('a notification survives the death of its worker mid-delivery', () => {
  let h: Harness;
  let receiver: Receiver;
  const workers: WorkerProcess[] = [];
  const env = { NOTIFY_REQUEST_TIMEOUT_MS: '2000', NOTIFY_RETRY_INITIAL_INTERVAL_MS: '200', NOTIFY_RETRY_MAX_ATTEMPTS: '6' };

  beforeAll(async () => {
    h = await startArrgo({ role: 'api', env });
    receiver = await startReceiver();
    workers.push(await startWorkerProcess(h, env));
  });
  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await h?.close();
    await receiver?.close();
  });

  it('delivers exactly once after the worker is killed during the request', async () => {
    const channel = await h.post('/notifications/channels', { name: 'crash', kind: 'webhook', url: receiver.url, secret: 'crash-secret-0123456789', events: ['sync.failed'] });
    expect(channel.status).toBe(201);
    receiver.holdNext();
    const started = await h.post(`/notifications/channels/${channel.body.id}/test`);
    expect(started.status).toBe(202);
    const deliveryId = started.body.id;
    await eventually(async () => receiver.requests.length, (n) => n === 1, 30_000, 50);

    await workers[0].kill();
    receiver.release();
    expect((await h.get(`/notifications/deliveries/${deliveryId}`)).body).toMatchObject({ status: 'pending', attempts: 0 });

    const metricsPort = await freePort();
    workers.push(await startWorkerProcess(h, { ...env, METRICS_PORT: String(metricsPort) }));
    const done = await eventually(() => h.get(`/notifications/deliveries/${deliveryId}`), (r) => r.body.status === 'delivered', 60_000);
    expect(done.body).toMatchObject({ status: 'delivered', lastStatusCode: 200, attempts: 2 });
    expect(done.body.attemptLog).toEqual([expect.objectContaining({ attempt: 2, statusCode: 200, outcome: 'delivered' })]);
    await new Promise((r) => setTimeout(r, 1000));

    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests.map((q) => q.answered)).toEqual([null, 200]);
    expect(new Set(receiver.requests.map((q) => q.headers['idempotency-key']))).toEqual(new Set([deliveryId]));
    expect([...receiver.processed().entries()]).toEqual([[deliveryId, 1]]);
    const executions: string[] = [];
    for await (const wf of h.service.temporal.client.workflow.list({ query: `WorkflowId = '${done.body.workflowId}'` })) executions.push(wf.runId);
    expect(executions).toHaveLength(1);
    // Starting the same delivery again is refused by its id: one event reaches one channel once.
    await expect(h.service.temporal.client.workflow.start('notificationDeliveryWorkflow', { taskQueue: h.taskQueue, workflowId: done.body.workflowId, args: [{ deliveryId, delayMs: 0, attemptTimeoutMs: 7000, retry: { initialIntervalMs: 200, maximumAttempts: 1 } }], workflowIdReusePolicy: 'REJECT_DUPLICATE' })).rejects.toThrow();

    // A worker-only process serves its own metrics on METRICS_PORT, with the API key.
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401);
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { 'X-Api-Key': h.apiKey } });
    const families = parsePrometheusText(await scraped.text());
    expect(sampleSum(families, 'arrgo_notification_deliveries_total', { result: 'delivered', channel_kind: 'webhook' })).toBe(1);
    expect(sampleSum(families, 'arrgo_worker_activity_execution_seconds_count', { activity: 'deliverNotification', outcome: 'completed' })).toBe(1);

    // Neither the URL nor the secret reaches a log line of the API or of either worker.
    const output = [...h.logs, ...workers.map((w) => w.output())].join('\n');
    expect(output).toContain('notification delivered');
    expect(output).not.toContain(receiver.token);
    expect(output).not.toContain('crash-secret-0123456789');
  });
});
