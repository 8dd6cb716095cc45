/**
 * Programmatic fault injection. A fault matches requests by method and path and is either one-shot
 * (`times: n`) or persistent (no `times`). Kinds:
 * - latency: wait `delayMs`, then handle the request normally (latencies of all matching faults add up);
 * - hang: never answer (the client's timeout fires; the socket is closed when the emulator closes);
 * - status: answer with `status` (401, 403, 404, 400, 409, 422, 500, 502, 503...) and an error body;
 * - malformed: answer 200 with a truncated JSON body;
 * - reset: destroy the connection without answering;
 * - resetAfter: handle the request as usual (a write is applied and logged as applied), then destroy
 *   the connection instead of answering: the client never learns that its write went through;
 * - ignoreField: accept a write to `resource` (a write-log kind: 'qualitydefinition', 'naming'...)
 *   as usual, but keep the stored `field` of every entity that existed before it (the app silently
 *   does not store that value; the response still echoes it). Reads are unaffected.
 * Any kind may also carry `delayMs`, applied before its effect. The default error and malformed bodies
 * contain the emulator's address, its API key and a fake secret, so tests can assert they never leak.
 */

export const FAULT_KINDS = ['latency', 'hang', 'status', 'malformed', 'reset', 'resetAfter', 'ignoreField'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /** Methods to match ('GET', 'PUT'...); default any. */
  method?: string | string[];
  /**
   * Path to match: a glob (`*` matches anything, including '/') tested against both the full path
   * (`/api/v3/customformat/1`) and the path under the API base (`/customformat/1`), or a RegExp
   * tested against the full path. Default: any path (control endpoints are never faulted).
   */
  path?: string | RegExp;
  /** How many requests the fault applies to; default: every matching request until removed. */
  times?: number;
  delayMs?: number;
  /** For kind 'status'. */
  status?: number;
  /** Response body for 'status' (a string is sent as is, anything else as JSON); default: a leak-bait error body. */
  body?: unknown;
  contentType?: string;
  /** For kind 'ignoreField': the write-log kind of the resource and the property the app does not store. */
  resource?: string;
  field?: string;
}

export interface Fault extends FaultSpec {
  id: string;
  /** Remaining uses; null when persistent. */
  remaining: number | null;
  hits: number;
}

export interface FaultPlan {
  delayMs: number;
  effect?: Fault;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 'i');
}

export function validateFaultSpec(spec: FaultSpec): void {
  if (!FAULT_KINDS.includes(spec.kind)) throw new Error(`unknown fault kind: ${String(spec.kind)}`);
  if (spec.kind === 'status' && !(Number.isInteger(spec.status) && spec.status! >= 400 && spec.status! <= 599)) {
    throw new Error('a status fault needs a status between 400 and 599');
  }
  if (spec.kind === 'latency' && !(typeof spec.delayMs === 'number' && spec.delayMs >= 0)) throw new Error('a latency fault needs delayMs >= 0');
  if (spec.delayMs !== undefined && !(typeof spec.delayMs === 'number' && spec.delayMs >= 0)) throw new Error('delayMs must be a number >= 0');
  if (spec.kind === 'ignoreField' && !(typeof spec.resource === 'string' && spec.resource && typeof spec.field === 'string' && spec.field)) {
    throw new Error('an ignoreField fault needs a resource and a field');
  }
  if (spec.times !== undefined && !(Number.isInteger(spec.times) && spec.times > 0)) throw new Error('times must be a positive integer');
}

export class FaultInjector {
  private faults: Fault[] = [];
  private sequence = 0;

  /** Adds a fault; returns it (its `id` removes it). */
  add(spec: FaultSpec): Fault {
    validateFaultSpec(spec);
    const fault: Fault = { ...spec, id: `fault-${++this.sequence}`, remaining: spec.times ?? null, hits: 0 };
    this.faults.push(fault);
    return fault;
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length !== before;
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  /**
   * Decides what happens to a request and consumes one use of every fault that applies: the delays
   * of matching latency faults, and the first matching fault of another kind.
   */
  plan(method: string, fullPath: string, apiRelativePath: string | null): FaultPlan {
    const plan: FaultPlan = { delayMs: 0 };
    for (const fault of this.faults) {
      if (fault.kind === 'ignoreField' || fault.remaining === 0 || !this.matches(fault, method, fullPath, apiRelativePath)) continue;
      if (fault.kind === 'latency') {
        plan.delayMs += fault.delayMs ?? 0;
      } else if (!plan.effect) {
        plan.delayMs += fault.delayMs ?? 0;
        plan.effect = fault;
      } else {
        continue;
      }
      fault.hits++;
      if (fault.remaining !== null) fault.remaining--;
    }
    this.faults = this.faults.filter((fault) => fault.remaining !== 0);
    return plan;
  }

  /**
   * The fields a write to `resource` does not store (ignoreField faults matching it), consuming one
   * use of each.
   */
  ignoredFields(resource: string, method: string, fullPath: string, apiRelativePath: string | null): string[] {
    const fields: string[] = [];
    for (const fault of this.faults) {
      if (fault.kind !== 'ignoreField' || fault.remaining === 0 || fault.resource?.toLowerCase() !== resource) continue;
      if (!this.matches(fault, method, fullPath, apiRelativePath)) continue;
      fields.push(fault.field!);
      fault.hits++;
      if (fault.remaining !== null) fault.remaining--;
    }
    this.faults = this.faults.filter((fault) => fault.remaining !== 0);
    return fields;
  }

  private matches(fault: Fault, method: string, fullPath: string, apiRelativePath: string | null): boolean {
    if (fault.method !== undefined) {
      const methods = (Array.isArray(fault.method) ? fault.method : [fault.method]).map((m) => m.toUpperCase());
      if (!methods.includes('*') && !methods.includes(method.toUpperCase())) return false;
    }
    if (fault.path === undefined) return true;
    if (fault.path instanceof RegExp) {
      fault.path.lastIndex = 0;
      return fault.path.test(fullPath);
    }
    const pattern = globToRegExp(fault.path);
    return pattern.test(fullPath) || (apiRelativePath !== null && pattern.test(apiRelativePath));
  }
}
