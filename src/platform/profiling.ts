import { channel } from 'node:diagnostics_channel';

/**
 * Profiling probes for `npm run bench -- --profile <name>`. Code under measurement publishes one
 * sample per timed step on a diagnostics channel; nothing listens outside a profiled bench, and a
 * channel without subscribers makes every probe a single property read (no timing, no allocation).
 *
 * The channel name is a contract: src/clients/http.ts (app HTTP) and
 * src/persistence/bound-parameters.ts (application-database statements and commits) publish on it
 * directly, because the layer rules keep them from importing platform code.
 */
export const PROFILE_CHANNEL = 'arrgo:profile';

export type ProfilePhase = 'activity' | 'local-activity' | 'db-write' | 'db-read' | 'db-commit' | 'app-http' | 'replay' | 'transform';

export interface ProfileSample {
  phase: ProfilePhase;
  /** What ran: an activity type, a SQL verb, an HTTP method, a replay or transform step. */
  name: string;
  /** Wall-clock start (ms since the epoch, sub-millisecond precision). */
  startedAt: number;
  ms: number;
  /** The worker identity, for activities. */
  identity?: string;
}

const profileChannel = channel(PROFILE_CHANNEL);

export function profiling(): boolean {
  return profileChannel.hasSubscribers;
}

export function publishSample(sample: ProfileSample): void {
  profileChannel.publish(sample);
}

/** Runs fn; when profiling, publishes its duration as a sample of phase (sync or async). */
export function probe<T>(phase: ProfilePhase, name: string, fn: () => T): T {
  if (!profileChannel.hasSubscribers) return fn();
  const startedAt = performance.timeOrigin + performance.now();
  const done = () => publishSample({ phase, name, startedAt, ms: performance.timeOrigin + performance.now() - startedAt });
  const value = fn();
  if (value instanceof Promise) return value.finally(done) as T;
  done();
  return value;
}
