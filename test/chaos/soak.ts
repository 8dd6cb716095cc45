/**
 * The chaos soak (docs/reliability.md, "Chaos soak"): the real service on PostgreSQL (API in this
 * process, two worker processes from dist/main.js) under concurrent load over emulated instances,
 * with faults from a seeded schedule (worker SIGKILLs, Temporal dev-server and PostgreSQL restarts,
 * emulator and receiver faults), then the invariants. `npm run chaos` runs the long form,
 * test/integration/chaos-soak.test.ts the short one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NotificationDelivery, NotificationEvent, SyncPreview, SyncRun } from '../../src/persistence/entities';
import { readOutboxBacklog } from '../../src/services/outbox/outbox-store';
import { driftScheduleId } from '../../src/services/schedules';
import type { FaultSpec } from '../../src/emulators';
import type { ArrType } from '../../src/domain/arr-types';
import { TERMINAL_ROLLOUT_STATUSES } from '../../src/domain/canary';
import type { SubscribableEventType } from '../../src/domain/notifications/types';
import { logLeaks } from '../helpers/api-fuzz';
import { addInstance, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { makeGitRepo, type TestGitRepo } from '../helpers/git-repo';
import { eventually, startArrgo, type Harness, type HttpResult } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { rng } from '../helpers/seeded-random';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';
import { startSoakServers, type SoakServers } from './servers';

export type SoakForm = 'short' | 'long';

interface FormPlan {
  instances: number;
  /** movie_app instances that only canary rollouts write (until the freeze). */
  rolloutGroup: number;
  workerKills: number;
  temporalRestarts: number;
  postgresRestarts: number;
  emulatorFaults: number;
  receiverFaults: number;
  loadSeconds: number;
  syncLanes: number;
}

export const SOAK_FORMS: Record<SoakForm, FormPlan> = {
  short: { instances: 5, rolloutGroup: 2, workerKills: 5, temporalRestarts: 1, postgresRestarts: 1, emulatorFaults: 15, receiverFaults: 3, loadSeconds: 80, syncLanes: 1 },
  long: { instances: 20, rolloutGroup: 5, workerKills: 20, temporalRestarts: 2, postgresRestarts: 2, emulatorFaults: 80, receiverFaults: 12, loadSeconds: 300, syncLanes: 2 },
};

export interface SoakReport {
  seed: number;
  form: SoakForm;
  seconds: number;
  faults: Record<string, number>;
  operations: Record<string, number>;
  /** Operations the service refused or that did not finish (under faults: expected, not violations). */
  unfinished: Record<string, number>;
  /** Invariant name → individual checks made. */
  invariants: Record<string, number>;
  violations: string[];
  /** Where the service's logs were written when an invariant failed. */
  logs?: string;
}

/** What the soak's service runs with: short heartbeats, so a killed worker's activity moves on in seconds. */
const ENV = {
  SYNC_HEARTBEAT_TIMEOUT_SECONDS: '3',
  SYNC_RETRY_MAX_ATTEMPTS: '8',
  NOTIFY_REQUEST_TIMEOUT_MS: '2000',
  NOTIFY_RETRY_INITIAL_INTERVAL_MS: '200',
  NOTIFY_RETRY_MAX_ATTEMPTS: '20',
  NOTIFY_GATE_WAIT_MINUTES: '0',
  NOTIFY_DRIFT_WINDOW_MINUTES: '0',
  // As users run it: every edit queues drift checks through the outbox.
  DRIFT_CHECK_AFTER_EDIT: 'true',
  // Failure detail is logged at debug only; the logs written after a violation need it.
  LOG_LEVEL: 'debug',
};
const EVENTS: SubscribableEventType[] = ['drift.detected', 'drift.resolved', 'rollout.awaiting_gate', 'rollout.completed', 'rollout.failed', 'rollout.aborted', 'sync.failed', 'pcd.pull_failed'];
const EDITED_PROFILES: Record<ArrType, string> = { movie_app: 'Movies 1080p', series_app: 'Series 1080p', music_app: 'Music Lossless' };
const ARR_TYPES: ArrType[] = ['movie_app', 'series_app', 'music_app'];
/** Every request is answered by then, even while Temporal or PostgreSQL restarts (the longest wait asked is 45 s). */
const ANSWER_WITHIN_MS = 90_000;
const FAULT_LABELS: Record<string, string> = {
  hang: 'timeout',
  '500': '500',
  '503': '503 twice',
  reset: 'dropped connection',
  resetAfter: 'dropped connection after the request was handled',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSoak(options: { seed: number; form: SoakForm; progress?: (line: string) => void }): Promise<SoakReport> {
  const plan = SOAK_FORMS[options.form];
  const random = rng(options.seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const progress = options.progress ?? (() => undefined);
  const report: SoakReport = { seed: options.seed, form: options.form, seconds: 0, faults: {}, operations: {}, unfinished: {}, invariants: {}, violations: [] };
  const tally = (map: Record<string, number>, key: string, n = 1) => void (map[key] = (map[key] ?? 0) + n);
  const checked = (name: string, ok: boolean, evidence: () => string) => {
    tally(report.invariants, name);
    if (!ok) report.violations.push(`${name}: ${evidence()}`);
  };
  const started = Date.now();

  const saved = { temporal: process.env.TEST_TEMPORAL_ADDRESS, postgres: process.env.TEST_DATABASE_URL };
  let servers: SoakServers | null = null;
  let h: Harness | null = null;
  let receiver: Receiver | null = null;
  let repo: TestGitRepo | null = null;
  const instances: FleetInstance[] = [];
  const workers: (WorkerProcess | null)[] = [null, null];
  const everyWorker: WorkerProcess[] = [];
  const killed = new Set<WorkerProcess>();
  try {
    servers = await startSoakServers();
    process.env.TEST_TEMPORAL_ADDRESS = servers.temporalAddress;
    process.env.TEST_DATABASE_URL = servers.postgresUrl;
    const service = await startArrgo({ role: 'api', db: 'postgresql', env: ENV });
    h = service;
    receiver = await startReceiver();
    const hook = receiver;

    const startWorker = async (slot: number) => {
      const deadline = Date.now() + 120_000;
      for (;;) {
        try {
          const worker = await startWorkerProcess(service, ENV);
          everyWorker.push(worker);
          workers[slot] = worker;
          worker.child.once('exit', () => {
            if (killed.has(worker)) return;
            tally(report.unfinished, 'worker exited on its own (restarted)');
            if (workers[slot] === worker) void startWorker(slot);
          });
          return;
        } catch (error) {
          // PostgreSQL or Temporal may be down for a moment: start again.
          if (Date.now() > deadline) throw error;
          await sleep(1000);
        }
      }
    };
    await Promise.all([startWorker(0), startWorker(1)]);

    // A git PCD (pulls fetch new commits) and the fleet.
    repo = makeGitRepo(SAMPLE_PCD);
    const pcd = repo;
    const linked = await service.post('/databases', { name: 'chaos', source: { kind: 'git', url: pcd.url, branch: 'main' } });
    if (linked.status !== 201) throw new Error(`linking the PCD failed: ${linked.status}`);
    const databaseId: number = linked.body.id;
    await eventually(() => service.get(`/databases/${databaseId}`), (r) => r.body.cache.status === 'ready', 120_000);
    for (let i = 0; i < plan.instances; i++) {
      const arrType = i < plan.rolloutGroup ? 'movie_app' : ARR_TYPES[(i - plan.rolloutGroup) % 3];
      instances.push(await addInstance(service, arrType, { name: `chaos-${i}`, databaseId }));
    }
    const rolloutGroup = instances.slice(0, plan.rolloutGroup);
    const syncGroup = instances.slice(plan.rolloutGroup);
    const channel = await service.post('/notifications/channels', { name: 'chaos', kind: 'webhook', url: hook.url, secret: 'chaos-secret-0123456789', events: EVENTS });
    if (channel.status !== 201) throw new Error(`the notification channel failed: ${channel.status}`);
    const channelId: number = channel.body.id;
    await service.put('/drift/settings', { enabled: true, intervalMinutes: 60 });
    progress(`setup done in ${((Date.now() - started) / 1000).toFixed(0)} s: ${plan.instances} instances, 2 workers`);

    // ---- load ----
    const loadStart = Date.now();
    const freezeAt = loadStart + plan.loadSeconds * 600;
    /** When the last edit or pull in flight at freezeAt was answered: plans made after it see the final desired state. */
    let frozenAt = Infinity;
    const endAt = loadStart + plan.loadSeconds * 1000;
    const since = () => `t+${((Date.now() - loadStart) / 1000).toFixed(0)} s`;
    /** A request the service must answer within ANSWER_WITHIN_MS, whatever is restarting. */
    const answered = <T>(label: string, request: Promise<T>): Promise<T> => {
      const sent = since();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          checked('the API answers every request', false, () => `${label} sent at ${sent} had no answer after ${ANSWER_WITHIN_MS / 1000} s`);
          progress(`${since()}: ${label} sent at ${sent} has no answer`);
          reject(new Error('no answer'));
        }, ANSWER_WITHIN_MS);
      });
      return Promise.race([request, late])
        .then((value) => {
          // Whatever is down, a request is answered with what the client can act on (a 503 to retry), never a 500.
          const status = (value as { status?: unknown } | null)?.status;
          checked('no request answered 500', status !== 500, () => `${label} sent at ${sent} was answered 500`);
          return value;
        })
        .finally(() => clearTimeout(timer));
    };
    const call = async (label: string, send: () => Promise<HttpResult>): Promise<HttpResult | null> => {
      try {
        const result = await answered(label, send());
        tally(report.invariants, 'the API answers every request');
        return result;
      } catch {
        tally(report.unfinished, `${label}: no answer`);
        return null;
      }
    };
    const poll = async (label: string, check: () => Promise<HttpResult>, accept: (value: HttpResult) => boolean, timeoutMs: number): Promise<HttpResult | null> => {
      try {
        return await eventually(() => answered(label, check()), accept, timeoutMs, 500);
      } catch {
        return null;
      }
    };

    /** Instances whose state must equal the last applied plan: a preview after the freeze was applied, or had nothing to do. */
    const converged = new Set<number>();
    const syncOnce = async (instance: FleetInstance, apply: boolean): Promise<void> => {
      const requestedAt = Date.now();
      const created = await call('POST /sync/previews', () => service.post('/sync/previews', { instanceId: instance.id }));
      if (!created || created.status >= 300) return void tally(report.unfinished, `preview refused (${created?.status ?? 'no answer'})`);
      const previewId: number = created.body.id;
      const ready = await poll('GET /sync/previews/{id}', () => service.get(`/sync/previews/${previewId}`), (r) => ['ready', 'failed', 'expired'].includes(r.body?.status), 120_000);
      if (ready?.body.status !== 'ready') return void tally(report.unfinished, `preview ${ready?.body.status ?? 'not generated in time'}`);
      tally(report.operations, 'sync previews');
      const { create, update, delete: deletes } = ready.body.counts;
      if (create + update + deletes === 0) {
        if (requestedAt > frozenAt) converged.add(instance.id);
        return;
      }
      if (!apply) return;
      const applying = await call('POST /sync/previews/{id}/apply', () => service.post(`/sync/previews/${previewId}/apply`));
      if (!applying || applying.status >= 300) return void tally(report.unfinished, `apply refused (${applying?.status ?? 'no answer'}${applying?.body?.code ? ` ${applying.body.code}` : ''})`);
      const done = await poll('GET /sync/previews/{id}', () => service.get(`/sync/previews/${previewId}`), (r) => ['applied', 'failed'].includes(r.body?.status), 240_000);
      if (done?.body.status !== 'applied') return void tally(report.unfinished, `apply ${done?.body.status ?? 'not finished in time'}${done?.body.failure?.code ? ` (${done.body.failure.code})` : ''}`);
      tally(report.operations, 'sync applies');
      if (requestedAt > frozenAt) converged.add(instance.id);
    };

    const syncLane = async () => {
      while (Date.now() < freezeAt) {
        await syncOnce(pick(syncGroup), random() < 0.75);
        await sleep(500 + random() * 1500);
      }
    };

    const rolloutLane = async () => {
      let turn = 0;
      while (Date.now() < freezeAt) {
        const canary = rolloutGroup[turn++ % rolloutGroup.length];
        const targets = rolloutGroup.filter((i) => i !== canary).slice(0, 2);
        const startedRollout = await call('POST /canary/rollouts', () =>
          service.post('/canary/rollouts', {
            arrType: 'movie_app',
            canaryInstanceId: canary.id,
            targetInstanceIds: targets.map((t) => t.id),
            sections: ['qualityProfiles', 'delayProfiles', 'mediaManagement'],
            partialPolicy: 'abort',
            batchSize: 1,
          }),
        );
        if (!startedRollout || startedRollout.status !== 201) {
          tally(report.unfinished, `rollout not started (${startedRollout?.status ?? 'no answer'}${startedRollout?.body?.code ? ` ${startedRollout.body.code}` : ''})`);
          await sleep(3000);
          continue;
        }
        const id: number = startedRollout.body.id;
        const get = () => service.get(`/canary/rollouts/${id}`);
        let state = await poll('GET /canary/rollouts/{id}', get, (r) => r.body?.status === 'awaiting_confirmation' || TERMINAL_ROLLOUT_STATUSES.includes(r.body?.status), 180_000);
        for (let attempt = 0; state?.body.status === 'awaiting_confirmation' && attempt < 4; attempt++) {
          const token = state.body.stateToken;
          const proceeded = await call('POST /canary/rollouts/{id}/proceed', () => service.post(`/canary/rollouts/${id}/proceed`, { stateToken: token }));
          if (proceeded?.status === 200) {
            tally(report.operations, 'rollout gates passed');
            break;
          }
          if (proceeded?.status === 409) await call('POST /canary/rollouts/{id}/refresh-evidence', () => service.post(`/canary/rollouts/${id}/refresh-evidence`, { stateToken: token }));
          await sleep(2000);
          state = await poll('GET /canary/rollouts/{id}', get, (r) => r.body?.status === 'awaiting_confirmation' || TERMINAL_ROLLOUT_STATUSES.includes(r.body?.status), 60_000);
        }
        const end = await poll('GET /canary/rollouts/{id}', get, (r) => TERMINAL_ROLLOUT_STATUSES.includes(r.body?.status) || r.body?.status === 'awaiting_confirmation', 300_000);
        if (end?.body.status === 'awaiting_confirmation') {
          // The gate refused every proceed: decline, as a user would.
          await call('POST /canary/rollouts/{id}/abort', () => service.post(`/canary/rollouts/${id}/abort`, { stateToken: end.body.stateToken }));
        }
        const final = await poll('GET /canary/rollouts/{id}', get, (r) => TERMINAL_ROLLOUT_STATUSES.includes(r.body?.status), 300_000);
        const why = final?.body.statusReasonCode ? ` (${final.body.statusReasonCode})` : '';
        tally(final?.body.status === 'completed' ? report.operations : report.unfinished, `rollouts ${final?.body.status ?? 'not finished in time'}${why}`);
      }
    };

    /** Acknowledged user-layer edits: profile name → values in order. */
    const edits = new Map<string, number[]>();
    const editLane = async () => {
      let value = 1000;
      while (Date.now() < freezeAt) {
        const profile = EDITED_PROFILES[pick(ARR_TYPES)];
        const next = ++value;
        const edited = await call('PATCH /pcd/{id}/entities/quality_profile/{name}', () => service.patch(`/pcd/${databaseId}/entities/quality_profile/${encodeURIComponent(profile)}`, { changes: [{ path: 'upgradeUntilScore', value: next }] }));
        if (edited?.status === 200 && edited.body.changed === true) {
          edits.set(profile, [...(edits.get(profile) ?? []), next]);
          tally(report.operations, 'user-layer edits');
        } else tally(report.unfinished, `edit refused (${edited?.status ?? 'no answer'})`);
        await sleep(2000 + random() * 3000);
      }
    };

    /** Commits made to the PCD's repository, and the index of the last one a pull answered ready for. */
    const commits: string[] = [pcd.head()];
    let pulledIndex = -1;
    const pullLane = async () => {
      let k = 0;
      while (Date.now() < freezeAt) {
        k++;
        commits.push(pcd.commit({ [path.join('ops', `${3 + k}.chaos.sql`)]: `UPDATE regular_expressions SET pattern = '\\b(CAM|HDCAM|TS|TELESYNC|CHAOS${k})\\b' WHERE name = 'Cam Rip';\n` }, `chaos ${k}`));
        const pulled = await call('POST /databases/{id}/pull', () => service.post(`/databases/${databaseId}/pull?wait=true&waitSeconds=45`));
        if (pulled?.status === 200 && pulled.body.status === 'ready') {
          pulledIndex = commits.length - 1;
          tally(report.operations, 'PCD pulls');
        } else tally(report.unfinished, `pull ${pulled?.body?.status ?? pulled?.status ?? 'no answer'}`);
        await sleep(6000 + random() * 6000);
      }
    };

    const driftLane = async () => {
      while (Date.now() < endAt) {
        if (random() < 0.3) {
          const trigger = service.service.temporal.client.schedule.getHandle(driftScheduleId(service.taskQueue)).trigger();
          const triggered = await answered('drift-poll schedule trigger (Temporal client)', trigger).then(() => true, () => false);
          tally(triggered ? report.operations : report.unfinished, triggered ? 'drift polls triggered' : 'drift poll trigger refused');
        } else {
          const checkedNow = await call('POST /drift/{id}/check', () => service.post(`/drift/${pick(instances).id}/check`));
          tally(checkedNow?.status === 200 ? report.operations : report.unfinished, checkedNow?.status === 200 ? 'drift checks' : `drift check ${checkedNow?.status ?? 'no answer'}`);
        }
        await sleep(2000 + random() * 4000);
      }
    };

    /** Test deliveries the API acknowledged (202 with the delivery id). */
    const acknowledgedDeliveries: string[] = [];
    const notifyLane = async () => {
      while (Date.now() < endAt) {
        const sent = await call('POST /notifications/channels/{id}/test', () => service.post(`/notifications/channels/${channelId}/test`));
        if (sent?.status === 202) {
          acknowledgedDeliveries.push(sent.body.id);
          tally(report.operations, 'test notifications acknowledged');
        } else tally(report.unfinished, `test notification ${sent?.status ?? 'no answer'}`);
        await sleep(3000 + random() * 5000);
      }
    };

    // The fault schedule: the big faults spread evenly (with jitter) in a seeded order, emulator and
    // receiver faults at seeded times.
    const big = [
      ...Array<string>(plan.workerKills).fill('worker SIGKILL'),
      ...Array<string>(plan.temporalRestarts).fill('Temporal restart'),
      ...Array<string>(plan.postgresRestarts).fill('PostgreSQL restart'),
    ];
    for (let i = big.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [big[i], big[j]] = [big[j], big[i]];
    }
    const spacing = (plan.loadSeconds * 1000) / (big.length + 1);
    const schedule = big.map((kind, i) => ({ at: spacing * (i + 1) + (random() - 0.5) * spacing * 0.5, kind }));
    const emulatorFaultKinds: FaultSpec[] = [
      { kind: 'hang', times: 1 },
      { kind: 'status', status: 500, times: 1 },
      { kind: 'status', status: 503, times: 2 },
      { kind: 'reset', times: 1 },
      { kind: 'resetAfter', times: 1 },
    ];
    const small = [
      ...Array.from({ length: plan.emulatorFaults }, () => ({ at: random() * plan.loadSeconds * 1000, kind: 'emulator' })),
      ...Array.from({ length: plan.receiverFaults }, () => ({ at: random() * plan.loadSeconds * 1000, kind: 'receiver' })),
    ].sort((a, b) => a.at - b.at);

    const bigFaultLane = async () => {
      for (const fault of schedule) {
        const wait = loadStart + fault.at - Date.now();
        if (wait > 0) await sleep(wait);
        progress(`t+${((Date.now() - loadStart) / 1000).toFixed(0)} s: ${fault.kind}`);
        if (fault.kind === 'worker SIGKILL') {
          const slot = Math.floor(random() * workers.length);
          const victim = workers[slot];
          if (!victim) continue;
          killed.add(victim);
          await victim.kill();
          await startWorker(slot);
        } else if (fault.kind === 'Temporal restart') {
          await servers!.restartTemporal(2000 + random() * 3000);
        } else {
          await servers!.restartPostgres(2000 + random() * 3000);
        }
        tally(report.faults, fault.kind);
      }
    };
    const smallFaultLane = async () => {
      for (const fault of small) {
        const wait = loadStart + fault.at - Date.now();
        if (wait > 0) await sleep(wait);
        if (fault.kind === 'receiver') {
          hook.script([503]);
          tally(report.faults, 'receiver 503');
          continue;
        }
        const spec = pick(emulatorFaultKinds);
        const method = pick(['GET', 'POST', 'PUT']);
        pick(instances).emulator.faults.add({ ...spec, method });
        tally(report.faults, `emulator ${FAULT_LABELS[spec.kind === 'status' ? String(spec.status) : spec.kind]} (${method})`);
      }
    };

    const background = [driftLane(), notifyLane(), bigFaultLane(), smallFaultLane()];
    const syncLanes = Array.from({ length: plan.syncLanes }, () => syncLane());
    const rollouts = rolloutLane();
    await Promise.all([editLane(), pullLane()]);
    frozenAt = Date.now();
    progress(`t+${((frozenAt - loadStart) / 1000).toFixed(0)} s: edits and pulls frozen; every instance is synced again under faults`);
    // After the freeze every instance is synced until a preview made after the freeze was applied or
    // had nothing to change; the rollout group once its last rollout ended.
    const sweep = async (share: FleetInstance[]) => {
      for (const instance of share) {
        for (let attempt = 0; attempt < 8 && !converged.has(instance.id); attempt++) {
          if (attempt > 0) await sleep(3000);
          await syncOnce(instance, true);
        }
      }
    };
    const shares = Array.from({ length: plan.syncLanes }, (_, lane) => syncGroup.filter((_, i) => i % plan.syncLanes === lane));
    await Promise.all([...syncLanes, ...shares.map(sweep), rollouts.then(() => sweep(rolloutGroup))]);
    await Promise.all(background);
    progress(`t+${((Date.now() - loadStart) / 1000).toFixed(0)} s: load and faults done; draining`);

    // ---- drain ----
    for (const instance of instances) instance.emulator.faults.clear();
    hook.script([]);
    const client = service.service.temporal.client;
    const previewStatus = async () => {
      const rows = await service.service.orm.em.fork().find(SyncPreview, {});
      return new Map(rows.map((p) => [p.workflowId, p.status]));
    };
    /** Running workflows that should have finished by now (a ready preview waits for its apply: that is where it should wait). */
    const stuck = async () => {
      const statuses = await previewStatus();
      const running: string[] = [];
      for await (const wf of client.workflow.list({ query: `TaskQueue = '${service.taskQueue}' AND ExecutionStatus = 'Running'` })) {
        if (wf.type === 'syncWorkflow' && statuses.get(wf.workflowId) === 'ready') continue;
        running.push(`${wf.type} ${wf.workflowId}`);
      }
      return running;
    };
    // First the outbox: a row whose publisher was killed mid-publish waits out its lease (60 s) before another
    // process publishes it, and its publish starts workflows and deliveries that the waits below then see end.
    const outboxBacklog = async () => (await readOutboxBacklog(service.service.orm.em.fork())).backlog;
    const outboxDrained = await eventually(outboxBacklog, (n) => n === 0, 150_000, 1000).catch(() => null);
    const drained = await eventually(stuck, (running) => running.length === 0, 180_000, 1000).catch(() => null);
    await eventually(
      () => service.service.orm.em.fork().count(NotificationDelivery, { status: { $nin: ['delivered', 'failed', 'skipped'] } }),
      (n) => n === 0,
      120_000,
      1000,
    ).catch(() => null);

    // ---- invariants ----
    // 0. Everything written to the outbox was published.
    const leftInOutbox = outboxDrained === null ? await outboxBacklog() : 0;
    checked('every event reached the receiver exactly once', leftInOutbox === 0, () => `the outbox still holds ${leftInOutbox} rows after the drain`);
    // 1. Every workflow reached a terminal state or waits where it should.
    const remaining = drained ?? (await stuck());
    const closed: Record<string, number> = {};
    const badClosed: string[] = [];
    for await (const wf of client.workflow.list({ query: `TaskQueue = '${service.taskQueue}'` })) {
      tally(closed, wf.status.name);
      tally(report.invariants, 'workflow terminal or waiting where it should');
      if (['FAILED', 'TERMINATED', 'TIMED_OUT', 'CANCELLED'].includes(wf.status.name)) badClosed.push(`${wf.type} ${wf.workflowId} ${wf.status.name}`);
    }
    if (remaining.length) report.violations.push(`workflow terminal or waiting where it should: still running after the drain: ${remaining.join(', ')}`);
    if (badClosed.length) report.violations.push(`workflow terminal or waiting where it should: closed abnormally: ${badClosed.join(', ')}`);
    progress(`workflows: ${Object.entries(closed).map(([s, n]) => `${s} ${n}`).join(', ')}`);

    // 2. Every app's state equals what the last applied plan wanted: a fresh preview changes nothing.
    for (const instance of instances) {
      if (!converged.has(instance.id)) {
        checked('app state equals the last applied plan', false, () => `${instance.name}: no preview made after the freeze was applied in 8 attempts`);
        continue;
      }
      const fresh = await service.post('/sync/previews?wait=true&waitSeconds=120', { instanceId: instance.id });
      const counts = fresh.body?.counts ?? {};
      checked('app state equals the last applied plan', fresh.body?.status === 'ready' && counts.create + counts.update + counts.delete === 0, () => `${instance.name}: a fresh preview is ${fresh.body?.status} with ${JSON.stringify(counts)}`);
    }

    // 3. No app entity created twice, no finished step sent again (the emulators' write logs).
    for (const instance of instances) {
      const { writes, state } = instance.emulator;
      const created = new Map<string, number>();
      for (const write of writes.log.filter((w) => w.applied && w.method === 'POST')) {
        const body = write.body as { name?: string; label?: string } | undefined;
        const key = `${write.kind} ${body?.name ?? body?.label ?? write.ids.join(',')}`;
        created.set(key, (created.get(key) ?? 0) + 1);
      }
      for (const [key, n] of created) checked('no app entity created twice', n === 1, () => `${instance.name}: ${key} created ${n} times`);
      for (const [kind, items] of [['custom formats', state.customFormats], ['quality profiles', state.qualityProfiles]] as const) {
        const names = (items as { name: string }[]).map((e) => e.name);
        checked('no app entity created twice', new Set(names).size === names.length, () => `${instance.name}: duplicate ${kind}: ${names.join(', ')}`);
      }
      // A write whose answer was lost (resetAfter) did not finish for arrgo: sending it again is the retry.
      const last = new Map<string, { body: string; answered: boolean }>();
      for (const write of writes.log.filter((w) => w.applied && w.method !== 'POST')) {
        const key = `${write.method} ${write.path}`;
        const body = JSON.stringify(write.body);
        const before = last.get(key);
        checked('no finished step sent again', !(before?.answered && before.body === body), () => `${instance.name}: ${key} sent again with the same body (write #${write.seq})`);
        last.set(key, { body, answered: write.fault !== 'resetAfter' });
      }
    }

    // 4. Every sync run has exactly one terminal status; every applied preview points at its run.
    const em = service.service.orm.em.fork();
    const runs = await em.find(SyncRun, {});
    const runKeys = new Map<string, number>();
    for (const run of runs) {
      checked('every sync run has one terminal status', run.status !== 'running' && run.finishedAt !== null, () => `run ${run.id} (${run.instanceName}) is ${run.status}, finished ${String(run.finishedAt)}`);
      const key = `${run.workflowId} ${run.instanceId}`;
      runKeys.set(key, (runKeys.get(key) ?? 0) + 1);
    }
    for (const [key, n] of runKeys) checked('every sync run has one terminal status', n === 1, () => `${n} runs recorded for ${key}`);
    const runById = new Map(runs.map((r) => [r.id, r]));
    for (const preview of await em.find(SyncPreview, {})) {
      if (preview.status === 'applied') {
        const run = preview.runId === null ? undefined : runById.get(preview.runId);
        checked('every sync run has one terminal status', run !== undefined && ['success', 'partial'].includes(run.status), () => `applied preview ${preview.id} has run ${preview.runId} (${run?.status})`);
      }
      checked('every sync run has one terminal status', !['generating', 'applying'].includes(preview.status), () => `preview ${preview.id} is still ${preview.status}`);
    }

    // 5. Every event reached the receiver exactly once (deduplicated by Idempotency-Key), and nothing else did.
    const deliveries = await em.find(NotificationDelivery, { channelId });
    const events = await em.find(NotificationEvent, { type: { $in: EVENTS }, coalescedInto: null });
    const deliveredEvents = new Set(deliveries.map((d) => d.eventId));
    for (const event of events) checked('every event reached the receiver exactly once', deliveredEvents.has(event.id), () => `event ${event.id} (${event.type}) has no delivery`);
    const accepted = new Map<string, number>();
    for (const request of hook.requests) {
      if (request.answered === null || request.answered >= 300) continue;
      const key = String(request.headers['idempotency-key'] ?? '');
      accepted.set(key, (accepted.get(key) ?? 0) + 1);
    }
    const rowIds = new Set(deliveries.map((d) => d.id));
    for (const delivery of deliveries) {
      // A gate reminder whose gate was passed before it was due is skipped: nothing to receive.
      const ok = delivery.status === 'delivered' ? hook.processed().get(delivery.id) === 1 : delivery.status === 'skipped' && !accepted.has(delivery.id);
      checked('every event reached the receiver exactly once', ok, () => `delivery ${delivery.id} (${delivery.eventType}) is ${delivery.status}, accepted ${accepted.get(delivery.id) ?? 0} times`);
    }
    for (const key of accepted.keys()) checked('every event reached the receiver exactly once', rowIds.has(key), () => `the receiver accepted ${key}, which no delivery row names`);
    for (const id of acknowledgedDeliveries) checked('every event reached the receiver exactly once', rowIds.has(id), () => `acknowledged test delivery ${id} has no row`);
    tally(report.operations, 'notifications delivered', [...accepted.keys()].length);
    tally(report.unfinished, 'notifications sent again after a 2xx (same Idempotency-Key, receiver deduplicates)', [...accepted.values()].reduce((s, n) => s + n - 1, 0));

    // 6. Every acknowledged user op is still there, and the PCD is at the last acknowledged pull.
    const userOps = (await service.get(`/pcd/${databaseId}/user-ops`)).body as { target: { name: string | null }; sql: string; outcome: { status: string } }[];
    for (const [profile, values] of edits) {
      for (const value of values) {
        checked('every acknowledged user op is still there', userOps.some((op) => op.target.name === profile && op.outcome.status === 'applied' && new RegExp(`\\b${value}\\b`).test(op.sql)), () => `the edit of ${profile} to ${value} is missing`);
      }
      const resolved = await service.get(`/pcd/${databaseId}/entities/quality_profile/${encodeURIComponent(profile)}`);
      const last = values[values.length - 1];
      checked('every acknowledged user op is still there', JSON.stringify(resolved.body).includes(`"upgradeUntilScore":${last}`), () => `${profile} does not resolve to its last acknowledged value ${last}`);
    }
    const database = await service.get(`/databases/${databaseId}`);
    // A pull that answered later (or not at all) may have moved it further, never back.
    checked('every acknowledged user op is still there', commits.indexOf(database.body.commit) >= pulledIndex, () => `the database is at ${database.body.commit}, before the last acknowledged pull (${commits[pulledIndex]})`);

    // 7. No raw error text at info level (API and every worker process).
    const lines = [...service.logs, ...everyWorker.flatMap((w) => w.output().split('\n').filter((l) => l.trim()))];
    const leaks = logLeaks(lines, [service.apiKey, ...instances.map((i) => i.apiKey), 'chaos-secret-0123456789', hook.token], [], { errorSummaries: true });
    checked('no raw error text in info-level logs', leaks.length === 0, () => `${leaks.length} lines, first: ${leaks.slice(0, 3).join(' | ')}`);
    tally(report.invariants, 'no raw error text in info-level logs', lines.length - 1);
    // CHAOS_KEEP_LOGS keeps them after a passing run too (to read why operations were refused).
    if (report.violations.length || process.env.CHAOS_KEEP_LOGS) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `arrgo-chaos-${options.seed}-`));
      fs.writeFileSync(path.join(dir, 'api.log'), lines.filter((l) => l.startsWith('{')).join('\n'));
      everyWorker.forEach((w, i) => fs.writeFileSync(path.join(dir, `worker-${i + 1}.log`), w.output()));
      report.logs = dir;
    }
  } finally {
    report.seconds = Math.round((Date.now() - started) / 1000);
    for (const worker of workers) if (worker) killed.add(worker);
    for (const worker of everyWorker) await worker.kill().catch(() => undefined);
    await h?.close().catch(() => undefined);
    await receiver?.close().catch(() => undefined);
    for (const instance of instances) await instance.emulator.close().catch(() => undefined);
    repo?.remove();
    await servers?.stop().catch(() => undefined);
    process.env.TEST_TEMPORAL_ADDRESS = saved.temporal;
    process.env.TEST_DATABASE_URL = saved.postgres;
  }
  return report;
}

/** The report as printed by `npm run chaos` and the jest test. */
export function formatReport(report: SoakReport): string {
  const list = (map: Record<string, number>) => Object.entries(map).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `  ${k}: ${n}`).join('\n');
  const sum = (map: Record<string, number>) => Object.values(map).reduce((s, n) => s + n, 0);
  return [
    `chaos soak (${report.form} form, seed ${report.seed}) in ${report.seconds} s`,
    `faults injected: ${sum(report.faults)}`,
    list(report.faults),
    `operations completed: ${sum(report.operations)}`,
    list(report.operations),
    `refused or unfinished under faults (expected): ${sum(report.unfinished)}`,
    list(report.unfinished),
    `invariants checked: ${sum(report.invariants)}`,
    list(report.invariants),
    `violations: ${report.violations.length}`,
    ...report.violations.map((v) => `  ${v}`),
    ...(report.logs ? [`logs of the API and every worker: ${report.logs}`] : []),
  ].join('\n');
}
