/** Sliding-window count of events per key, within this process (ample for one API process). */
export class SlidingWindowLimiter<K = string> {
  private readonly events = new Map<K, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Seconds until the key may take another event (0 = now). */
  retryAfterSeconds(key: K, now = Date.now()): number {
    const recent = (this.events.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length) this.events.set(key, recent);
    else this.events.delete(key);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.limit] + this.windowMs - now) / 1000));
  }

  record(key: K, now = Date.now()): void {
    this.events.set(key, [...(this.events.get(key) ?? []), now]);
  }

  /** Checks and records in one step; returns the wait in seconds when refused (nothing recorded). */
  take(key: K, now = Date.now()): number {
    const wait = this.retryAfterSeconds(key, now);
    if (wait === 0) this.record(key, now);
    return wait;
  }
}
