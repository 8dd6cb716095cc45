import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import fs from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { PROFILE_CHANNEL, type ProfilePhase, type ProfileSample } from '../platform/profiling';

/**
 * The phase breakdown of `npm run bench -- --profile <name>`. A benchmark that supports it opens
 * named sections (time windows); the samples published by the probes (src/platform/profiling.ts)
 * and the Temporal history events of every workflow that ran fall into the section whose window
 * holds their start. Durations are summed: concurrent steps overlap, so a sum may exceed the wall time.
 *
 * - workflow tasks: WorkflowTaskScheduled → Started (waiting in the task queue) and Started →
 *   Completed (the worker running workflow code), from the histories;
 * - activity queue: ActivityTaskScheduled → Started, from the histories;
 * - activities / local activities: count and execution time per type, from the worker's interceptor;
 * - db writes / commits / reads: application-database statements and transaction commits;
 * - app http: requests to the apps; replay: PCD replays; transform: sync source reads and plans;
 * - cpu: CPU time of each tracked process (this one, the Temporal dev server, the emulated apps)
 *   during the section, from /proc (Linux; absent elsewhere).
 *
 * With BENCH_CPU_PROFILE_DIR set, each section also writes a V8 CPU profile of this process's main
 * thread (`<dir>/<section>.cpuprofile`, open it in Chrome DevTools).
 */
export class Profiler {
  private readonly samples: ProfileSample[] = [];
  private readonly sections: { name: string; start: number; end: number | null; cpuStart: Map<string, number>; cpuMs: Map<string, number> }[] = [];
  private readonly processes = new Map<string, number>([['bench and arrgo', process.pid]]);
  private readonly workflowTasks: { at: number; queueMs: number; runMs: number }[] = [];
  private readonly activityQueue: { at: number; ms: number; name: string; identity: string }[] = [];
  private readonly cpuProfileDir = process.env.BENCH_CPU_PROFILE_DIR;
  private inspector: Session | null = null;
  private readonly onSample = (message: unknown) => {
    this.samples.push(message as ProfileSample);
  };

  constructor() {
    subscribe(PROFILE_CHANNEL, this.onSample);
  }

  /** Opens a section (closing the current one). */
  section(name: string): void {
    this.end();
    this.sections.push({ name, start: now(), end: null, cpuStart: this.cpu(), cpuMs: new Map() });
    if (this.cpuProfileDir) {
      this.inspector ??= new Session();
      this.inspector.connect();
      this.inspector.post('Profiler.enable', () => this.inspector?.post('Profiler.start'));
    }
  }

  end(): void {
    const open = this.sections.at(-1);
    if (open && open.end === null) {
      open.end = now();
      if (this.inspector && this.cpuProfileDir) {
        const session = this.inspector;
        const file = path.join(this.cpuProfileDir, `${open.name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
        session.post('Profiler.stop', (error, result) => {
          if (!error) fs.writeFileSync(file, JSON.stringify(result.profile));
          session.disconnect();
        });
      }
      for (const [label, ms] of this.cpu()) {
        const start = open.cpuStart.get(label);
        if (start !== undefined) open.cpuMs.set(label, ms - start);
      }
    }
  }

  /** Counts the CPU time of another process (by pid) in each section from now on. */
  trackProcess(label: string, pid: number): void {
    this.processes.set(label, pid);
  }

  private cpu(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [label, pid] of this.processes) {
      try {
        // Fields 14 and 15 (after the parenthesised command): user and system time in clock ticks (100/s).
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        out.set(label, (Number(fields[11]) + Number(fields[12])) * 10);
      } catch {
        /* not Linux, or the process is gone */
      }
    }
    return out;
  }

  /**
   * Reads the histories of every workflow started since `sinceMs` (the bench's own Temporal
   * server): call before the service stops, after the measured work is done.
   */
  async collectHistories(client: Client, sinceMs: number): Promise<void> {
    this.end();
    await new Promise((r) => setTimeout(r, 1500)); // visibility is eventually consistent
    for await (const execution of client.workflow.list()) {
      if (execution.startTime.getTime() < sinceMs - 1000) continue;
      const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
      this.addHistory(history.events ?? []);
    }
  }

  private addHistory(events: temporal.api.history.v1.IHistoryEvent[]): void {
    const byId = new Map<number, number>();
    for (const event of events) {
      const at = eventMs(event);
      byId.set(Number(event.eventId), at);
      const started = event.workflowTaskStartedEventAttributes;
      if (started) {
        const scheduled = byId.get(Number(started.scheduledEventId));
        if (scheduled !== undefined) this.workflowTasks.push({ at: scheduled, queueMs: at - scheduled, runMs: 0 });
      }
      const completed = event.workflowTaskCompletedEventAttributes ?? event.workflowTaskFailedEventAttributes ?? event.workflowTaskTimedOutEventAttributes;
      if (completed) {
        const startedAt = byId.get(Number(completed.startedEventId));
        const task = this.workflowTasks.at(-1);
        if (startedAt !== undefined && task) task.runMs = at - startedAt;
      }
      const activityStarted = event.activityTaskStartedEventAttributes;
      if (activityStarted) {
        const scheduledEvent = events.find((e) => Number(e.eventId) === Number(activityStarted.scheduledEventId));
        const scheduled = byId.get(Number(activityStarted.scheduledEventId));
        if (scheduled !== undefined) {
          this.activityQueue.push({
            at: scheduled,
            ms: at - scheduled,
            name: scheduledEvent?.activityTaskScheduledEventAttributes?.activityType?.name ?? '?',
            identity: activityStarted.identity ?? '',
          });
        }
      }
    }
  }

  print(write: (line: string) => void): void {
    this.end();
    for (const section of this.sections) {
      const within = (at: number) => at >= section.start && at < (section.end ?? Infinity);
      const samples = this.samples.filter((s) => within(s.startedAt));
      const phase = (p: ProfilePhase) => samples.filter((s) => s.phase === p);
      write(`## profile: ${section.name}  (wall ${fmt((section.end ?? now()) - section.start)} ms)`);
      if (section.cpuMs.size) write(`  ${'cpu'.padEnd(24)} ${[...section.cpuMs].map(([label, ms]) => `${label} ${fmt(ms)} ms`).join(', ')}`);
      const tasks = this.workflowTasks.filter((t) => within(t.at));
      write(row('workflow tasks: queue', tasks.map((t) => t.queueMs)));
      write(row('workflow tasks: run', tasks.map((t) => t.runMs)));
      const queued = this.activityQueue.filter((a) => within(a.at));
      write(row('activity queue', queued.map((a) => a.ms)));
      for (const p of ['activity', 'local-activity'] as const) write(row(`${p === 'activity' ? 'activities' : 'local activities'}`, phase(p).map((s) => s.ms), byName(phase(p))));
      write(row('db writes', phase('db-write').map((s) => s.ms), byName(phase('db-write'))));
      write(row('db commits', phase('db-commit').map((s) => s.ms)));
      write(row('db reads', phase('db-read').map((s) => s.ms), byName(phase('db-read'))));
      write(row('app http', phase('app-http').map((s) => s.ms), byName(phase('app-http'))));
      write(row('replay', phase('replay').map((s) => s.ms), byName(phase('replay'))));
      write(row('transform', phase('transform').map((s) => s.ms), byName(phase('transform'))));
    }
  }

  close(): void {
    unsubscribe(PROFILE_CHANNEL, this.onSample);
  }
}

function now(): number {
  return performance.timeOrigin + performance.now();
}

function eventMs(event: temporal.api.history.v1.IHistoryEvent): number {
  const time = event.eventTime;
  if (!time) return 0;
  return Number(time.seconds ?? 0) * 1000 + (time.nanos ?? 0) / 1e6;
}

function row(label: string, values: number[], detail = ''): string {
  if (values.length === 0) return `  ${label.padEnd(24)} n=0`;
  const sorted = [...values].sort((a, b) => a - b);
  const total = sorted.reduce((a, b) => a + b, 0);
  const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `  ${label.padEnd(24)} n=${String(values.length).padEnd(5)} sum=${fmt(total).padStart(7)} ms  mean=${fmt(total / values.length)}  p50=${fmt(pct(0.5))}  p95=${fmt(pct(0.95))}  max=${fmt(sorted.at(-1)!)}${detail ? `  [${detail}]` : ''}`;
}

/** The heaviest names: count and summed time. */
function byName(samples: ProfileSample[]): string {
  const groups = new Map<string, { n: number; ms: number }>();
  for (const s of samples) {
    const g = groups.get(s.name) ?? { n: 0, ms: 0 };
    g.n++;
    g.ms += s.ms;
    groups.set(s.name, g);
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, 6)
    .map(([name, g]) => `${name} ${g.n}× ${fmt(g.ms)} ms`)
    .join(', ');
}

function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}
