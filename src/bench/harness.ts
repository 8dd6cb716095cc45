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
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
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
