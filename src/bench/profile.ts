import { subscribe, unsubscribe } from 'node:diagnostics_channel';
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
 * - app http: requests to the apps; replay: PCD replays; transform: sync source reads and plans.
 */
export class Profiler {
  private readonly samples: ProfileSample[] = [];
  private readonly sections: { name: string; start: number; end: number | null }[] = [];
  private readonly workflowTasks: { at: number; queueMs: number; runMs: number }[] = [];
  private readonly activityQueue: { at: number; ms: number; name: string; identity: string }[] = [];
  private readonly onSample = (message: unknown) => {
    this.samples.push(message as ProfileSample);
  };

  constructor() {
    subscribe(PROFILE_CHANNEL, this.onSample);
  }

  /** Opens a section (closing the current one). */
  section(name: string): void {
    this.end();
    this.sections.push({ name, start: now(), end: null });
  }

  end(): void {
    const open = this.sections.at(-1);
    if (open && open.end === null) open.end = now();
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
      const tasks = this.workflowTasks.filter((t) => within(t.at));
      write(row('workflow tasks: queue', tasks.map((t) => t.queueMs)));
      write(row('workflow tasks: run', tasks.map((t) => t.runMs)));
      const queued = this.activityQueue.filter((a) => within(a.at));
      write(row('activity queue', queued.map((a) => a.ms)));
      for (const p of ['activity', 'local-activity'] as const) write(row(`${p === 'activity' ? 'activities' : 'local activities'}`, phase(p).map((s) => s.ms), byName(phase(p))));
      write(row('db writes', phase('db-write').map((s) => s.ms), byName(phase('db-write'))));
      write(row('db commits', phase('db-commit').map((s) => s.ms)));
      write(row('db reads', phase('db-read').map((s) => s.ms)));
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
