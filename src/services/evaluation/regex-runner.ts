/**
 * Runs translated custom-format regexes with a per-match deadline.
 *
 * V8 cannot interrupt a running RegExp, so matching runs in a worker thread. Before each match
 * the worker stores the match's index in shared memory; a watchdog in the calling thread sees when
 * one index stays current past the deadline, terminates the worker, records that match as timed
 * out (it counts as no match and is reported) and resumes the rest of the batch in a fresh worker.
 * Results are written to shared memory as they are produced, so nothing done before a timeout is
 * lost. A pattern that ran past the deadline is quarantined for its table (a database cache state):
 * later matches of it are reported as timed out at once, so one pathological pattern cannot make
 * every evaluation wait a deadline per title. The worker is spawned from source (eval) so it runs the same from `dist` and under jest.
 */
import { Worker } from 'node:worker_threads';
import { instantiate, type TranslatedRegex } from '../../domain/evaluation';

export const MATCH_NO = 0;
export const MATCH_YES = 1;
export const MATCH_TIMEOUT = 2;
export const MATCH_ERROR = 3;
export type MatchCode = 0 | 1 | 2 | 3;

export interface RegexTask {
  subject: string;
  /** subjectKey(subject). */
  key: string;
  /** The pattern set (of the table) to test the subject against. */
  set: number;
}

export interface RegexTable {
  patterns: TranslatedRegex[];
  /** Pattern sets: lists of indexes into `patterns`. */
  sets: number[][];
}

/**
 * Instantiated sources per subject key (non-ASCII character set) the worker keeps per table after a
 * run. The worker and the caller trim in the same (send) order after each run, so a key the caller
 * believes sent is always there; a trimmed key is sent again with the next run that needs it.
 */
const KEYS_KEPT = 32;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const tables = new Map();
function instances(table, key) {
  let byKey = table.compiled.get(key);
  if (!byKey) {
    if (table.compiled.size >= 32) table.compiled.delete(table.compiled.keys().next().value);
    byKey = new Array(table.patterns.length);
    table.compiled.set(key, byKey);
  }
  return byKey;
}
function compile(table, key, index) {
  const p = table.patterns[index];
  const source = key === '' || !p.dependent ? p.source : table.keyed.get(key)[index];
  return new RegExp(source, p.flags);
}
parentPort.on('message', (m) => {
  if (m.type === 'load') {
    if (tables.size >= 4) tables.delete(tables.keys().next().value);
    tables.set(m.table, { patterns: m.patterns, sets: m.sets, compiled: new Map(), keyed: new Map() });
    return;
  }
  if (m.type === 'run') {
    const table = tables.get(m.table);
    for (const [key, sources] of m.keyed) table.keyed.set(key, sources);
    const progress = new Int32Array(m.progress);
    const out = new Uint8Array(m.results);
    const skip = new Set(m.skip);
    let flat = 0;
    for (let t = 0; t < m.subjects.length; t++) {
      const subject = m.subjects[t];
      const key = m.keys[t];
      const set = table.sets[m.sets[t]];
      if (flat + set.length <= m.start) { flat += set.length; continue; }
      const byKey = instances(table, key);
      for (let j = 0; j < set.length; j++, flat++) {
        if (flat < m.start) continue;
        Atomics.store(progress, 0, flat + 1);
        const index = set[j];
        if (skip.has(index)) { out[flat] = 2; continue; }
        let code;
        try {
          const re = byKey[index] || (byKey[index] = compile(table, key, index));
          code = re.test(subject) ? 1 : 0;
        } catch { code = 3; }
        out[flat] = code;
      }
    }
    while (table.keyed.size > ${KEYS_KEPT}) table.keyed.delete(table.keyed.keys().next().value);
    Atomics.store(progress, 0, 0);
    parentPort.postMessage({ type: 'done', id: m.id });
  }
});
`;

interface LoadedTable {
  id: number;
  table: RegexTable;
  /** Subject keys whose instantiated sources the current worker holds. */
  keysSent: Set<string>;
}

/** Patterns (indexes) that ran past the deadline, per table. */
const quarantined = new WeakMap<RegexTable, Set<number>>();

export interface RegexRunnerOptions {
  /** A match running longer than this counts as no match (reported as timed out). */
  deadlineMs: number;
}

/** One worker, one batch at a time (batches queue). */
export class RegexRunner {
  private worker: Worker | null = null;
  private loaded = new Map<RegexTable, LoadedTable>();
  private nextTableId = 1;
  private nextRunId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  /** Matches that ran past the deadline since start (operators' counter). */
  timeouts = 0;

  constructor(private readonly options: RegexRunnerOptions) {}

  get deadlineMs(): number {
    return this.options.deadlineMs;
  }

  /** Results per task, one code per pattern of its set (in set order). */
  run(table: RegexTable, tasks: readonly RegexTask[]): Promise<Uint8Array[]> {
    const result = this.queue.then(() => this.runBatch(table, tasks));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.loaded.clear();
    if (worker) await worker.terminate();
  }

  private spawn(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    this.worker = worker;
    this.loaded.clear();
    return worker;
  }

  private ensureLoaded(worker: Worker, table: RegexTable, tasks: readonly RegexTask[]): { loaded: LoadedTable; keyed: [string, (string | null)[]][] } {
    let loaded = this.loaded.get(table);
    if (!loaded) {
      if (this.loaded.size >= 4) this.loaded.delete(this.loaded.keys().next().value as RegexTable);
      loaded = { id: this.nextTableId++, table, keysSent: new Set() };
      this.loaded.set(table, loaded);
      worker.postMessage({
        type: 'load',
        table: loaded.id,
        patterns: table.patterns.map((p) => ({ source: instantiate(p, ''), flags: p.flags, dependent: p.subjectDependent })),
        sets: table.sets,
      });
    }
    const keyed: [string, (string | null)[]][] = [];
    for (const task of tasks) {
      if (task.key === '' || loaded.keysSent.has(task.key)) continue;
      loaded.keysSent.add(task.key);
      keyed.push([task.key, table.patterns.map((p) => (p.subjectDependent ? instantiate(p, task.key) : null))]);
    }
    return { loaded, keyed };
  }

  /** Mirrors the worker's trimming after a run. */
  private trimKeys(loaded: LoadedTable): void {
    while (loaded.keysSent.size > KEYS_KEPT) loaded.keysSent.delete(loaded.keysSent.values().next().value as string);
  }

  private async runBatch(table: RegexTable, tasks: readonly RegexTask[]): Promise<Uint8Array[]> {
    const offsets: number[] = [];
    let total = 0;
    for (const task of tasks) {
      offsets.push(total);
      total += table.sets[task.set].length;
    }
    const shared = new SharedArrayBuffer(Math.max(total, 1));
    const results = new Uint8Array(shared);
    let skip = quarantined.get(table);
    if (!skip) quarantined.set(table, (skip = new Set()));
    let start = 0;
    while (start < total) {
      const timedOut = await this.runOnce(table, tasks, shared, start, [...skip]);
      if (timedOut === null) break;
      results[timedOut] = MATCH_TIMEOUT;
      this.timeouts++;
      let t = offsets.length - 1;
      while (offsets[t] > timedOut) t--;
      skip.add(table.sets[tasks[t].set][timedOut - offsets[t]]);
      start = timedOut + 1;
    }
    return tasks.map((task, i) => results.subarray(offsets[i], offsets[i] + table.sets[task.set].length));
  }

  /** Runs from `start`; resolves null when done, or the index of a match that ran past the deadline. */
  private runOnce(table: RegexTable, tasks: readonly RegexTask[], results: SharedArrayBuffer, start: number, skip: number[]): Promise<number | null> {
    const worker = this.spawn();
    const { loaded, keyed } = this.ensureLoaded(worker, table, tasks);
    const progressBuffer = new SharedArrayBuffer(4);
    const progress = new Int32Array(progressBuffer);
    const id = this.nextRunId++;
    const { deadlineMs } = this.options;
    return new Promise<number | null>((resolve, reject) => {
      let last = 0;
      let since = Date.now();
      const finish = () => {
        clearInterval(watchdog);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (m: { type: string; id: number }) => {
        if (m.type !== 'done' || m.id !== id) return;
        finish();
        this.trimKeys(loaded);
        resolve(null);
      };
      const onError = (error: Error) => {
        finish();
        this.worker = null;
        reject(error);
      };
      const onExit = () => {
        finish();
        this.worker = null;
        reject(new Error('regex worker exited'));
      };
      const watchdog = setInterval(
        () => {
          const current = Atomics.load(progress, 0);
          const now = Date.now();
          if (current !== last || current === 0) {
            last = current;
            since = now;
            return;
          }
          if (now - since < deadlineMs) return;
          finish();
          this.worker = null;
          this.loaded.clear();
          void worker.terminate();
          resolve(current - 1);
        },
        Math.max(2, Math.floor(deadlineMs / 4)),
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({
        type: 'run',
        id,
        table: loaded.id,
        subjects: tasks.map((t) => t.subject),
        keys: tasks.map((t) => t.key),
        sets: tasks.map((t) => t.set),
        keyed,
        progress: progressBuffer,
        results,
        start,
        skip,
      });
    });
  }
}
