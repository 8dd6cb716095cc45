/** Throttled heartbeats for activities that report progress item by item. */
import { Context } from '@temporalio/activity';

/** Heartbeats of a long activity go out at least this often while it waits on slow apps (and thrice per timeout). */
const HEARTBEAT_EVERY_MS = 10_000;
/**
 * Progress is heartbeated at most this often (the last one of a burst still goes out): each
 * heartbeat serializes the whole progress, and the SDK sends the server only the latest one every
 * 80% of the heartbeat timeout anyway.
 */
const HEARTBEAT_SPACING_MS = 250;

/** Calls `fn` at most once per `spacingMs`; a call inside the spacing runs at its end. */
function throttled(spacingMs: number, fn: () => void): { (): void; now: () => void; flush: () => void } {
  let last = 0;
  let pending: NodeJS.Timeout | null = null;
  const now = () => {
    if (pending) clearTimeout(pending);
    pending = null;
    last = Date.now();
    fn();
  };
  const call = () => {
    if (pending) return;
    const wait = last + spacingMs - Date.now();
    if (wait <= 0) now();
    else pending = setTimeout(now, wait);
  };
  return Object.assign(call, {
    now,
    flush: () => {
      if (pending) now();
    },
  });
}

/**
 * Heartbeats `details()` after each item (`beat`, throttled) and on a timer while items wait on
 * slow apps; `stop` sends the last progress and ends the timer.
 */
export function progressHeartbeat(ctx: Context, details: () => unknown): { beat: () => void; stop: () => void } {
  const beat = throttled(HEARTBEAT_SPACING_MS, () => ctx.heartbeat(details()));
  const timer = setInterval(beat.now, Math.max(200, Math.min(HEARTBEAT_EVERY_MS, (ctx.info.heartbeatTimeoutMs ?? HEARTBEAT_EVERY_MS * 3) / 3)));
  return {
    beat,
    stop: () => {
      clearInterval(timer);
      beat.flush();
    },
  };
}

/**
 * Runs one long step of the current activity with heartbeats on a timer (`details()` as its
 * progress): an attempt whose worker died is retried within the heartbeat timeout instead of
 * holding its workflow for the whole start-to-close bound.
 */
export async function withHeartbeat<T>(details: () => unknown, step: () => Promise<T>): Promise<T> {
  const heartbeat = progressHeartbeat(Context.current(), details);
  try {
    return await step();
  } finally {
    heartbeat.stop();
  }
}
