import type { NotificationEventType } from './types';

/** The last drift event of a subject that was not coalesced (what its receivers last heard). */
export interface LastTold {
  type: NotificationEventType;
  occurredAt: Date;
}

/**
 * The flood guard for drift: a `drift.detected` is coalesced into the last one told about the
 * same instance when that was also a `drift.detected` within the window (an instance flapping
 * between drifted, unreachable and unauthorized raises one notification per window); a
 * `drift.resolved` is coalesced when receivers were not told of drift (nothing to resolve).
 * Receivers therefore never hold a wrong picture: a resolution after drift is always sent.
 */
export function coalesceDrift(type: NotificationEventType, lastTold: LastTold | null, now: Date, windowMs: number): boolean {
  if (type === 'drift.detected') {
    return windowMs > 0 && lastTold?.type === 'drift.detected' && now.getTime() - lastTold.occurredAt.getTime() < windowMs;
  }
  if (type === 'drift.resolved') return lastTold?.type !== 'drift.detected';
  return false;
}
