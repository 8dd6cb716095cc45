import type { Profiler } from './profile';

/**
 * Benchmarks print ratios against a baseline measured in the same run, never absolute
 * pass/fail thresholds. Each benchmark module exports a Benchmark; src/bench/run.ts runs them.
 */
export interface BenchLine {
  name: string;
  /** Human-readable measured values. */
  values: Record<string, string | number>;
  /** ratio = measured / baseline, with the goal it is compared to (reported, not asserted). */
  ratio?: { value: number; baseline: string; goal?: string };
}

export interface Benchmark {
  name: string;
  /** Why the benchmark cannot run here (e.g. ../shared missing), or null. */
  unavailable?: () => string | null;
  /** With `--profile`, a profiler: the benchmark opens sections and collects histories (see profile.ts). */
  run(report: (line: BenchLine) => void, options?: { profile?: Profiler }): Promise<void>;
}

export async function timeIt<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** Median of several runs after warm-up; benchmarks use it for both sides of a ratio. */
export async function medianMs(runs: number, fn: () => Promise<unknown> | unknown, warmup = 1): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push((await timeIt(fn)).ms);
  return median(samples);
}

/** Timings of a measured operation against its baseline, sampled in alternating rounds. */
export interface PairedTimings {
  baseline: { medianMs: number; bestMs: number };
  measured: { medianMs: number; bestMs: number };
  /** measured / baseline, from the medians and from the best runs (best-of-N). */
  medianRatio: number;
  bestRatio: number;
  rounds: number;
}

/**
 * Samples a baseline and a measured operation alternately (after warm-up rounds of both; the order
 * within a round alternates too), so that both sides see the same machine load, yielding to the
 * event loop before each sample. On a shared machine the best of N is the steadier figure (a longer
 * operation is preempted more often); the medians are reported beside it.
 */
export async function pairedTimings(rounds: number, baseline: () => unknown, measured: () => unknown, warmup = 3): Promise<PairedTimings> {
  for (let i = 0; i < warmup; i++) {
    await baseline();
    await measured();
  }
  const a: number[] = [];
  const b: number[] = [];
  const sample = async (fn: () => unknown, into: number[]) => {
    await new Promise((resolve) => setImmediate(resolve));
    into.push((await timeIt(fn)).ms);
  };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      await sample(baseline, a);
      await sample(measured, b);
    } else {
      await sample(measured, b);
      await sample(baseline, a);
    }
  }
  const baselineStats = { medianMs: median(a), bestMs: Math.min(...a) };
  const measuredStats = { medianMs: median(b), bestMs: Math.min(...b) };
  return {
    baseline: baselineStats,
    measured: measuredStats,
    medianRatio: measuredStats.medianMs / baselineStats.medianMs,
    bestRatio: measuredStats.bestMs / baselineStats.bestMs,
    rounds,
  };
}

export function formatLine(line: BenchLine): string {
  const values = Object.entries(line.values)
    .map(([k, v]) => `${k}=${typeof v === 'number' ? round(v) : v}`)
    .join('  ');
  const ratio = line.ratio
    ? `  ratio=${line.ratio.value.toFixed(2)}x vs ${line.ratio.baseline}${line.ratio.goal ? ` (goal ${line.ratio.goal})` : ''}`
    : '';
  return `${line.name.padEnd(48)} ${values}${ratio}`;
}

function round(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
}

/** The middle sample (the upper one of an even count). */
export function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
