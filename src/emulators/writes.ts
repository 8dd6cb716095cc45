/**
 * Every write request (POST, PUT, DELETE) to an entity endpoint is logged; `count` counts the ones
 * the app applied (2xx), so tests can assert exactly what a sync wrote.
 */
import type { EntityKind } from './router';

export type WriteMethod = 'POST' | 'PUT' | 'DELETE';

export interface WriteRecord {
  seq: number;
  at: string;
  method: WriteMethod;
  /** Full request path, without the query. */
  path: string;
  kind: EntityKind;
  /** HTTP status answered; 0 when the request was hung or its connection reset by a fault. */
  status: number;
  /** True when the app applied the write (2xx). */
  applied: boolean;
  /** Ids of the entities the write touched (for a bulk update, each updated definition). */
  ids: number[];
  /** The request body as received (parsed JSON, or the raw text when it was not JSON). */
  body?: unknown;
  /** The injected fault that answered instead of the app, if any ('resetAfter': the app applied the write, its answer was lost). */
  fault?: string;
}

export class WriteRecorder {
  readonly log: WriteRecord[] = [];
  private sequence = 0;

  record(entry: Omit<WriteRecord, 'seq' | 'at'>): WriteRecord {
    const record: WriteRecord = { seq: ++this.sequence, at: new Date().toISOString(), ...entry };
    this.log.push(record);
    return record;
  }

  /** Applied writes of a kind (optionally of one method). */
  count(kind: EntityKind, method?: WriteMethod): number {
    return this.log.filter((entry) => entry.applied && entry.kind === kind && (method === undefined || entry.method === method)).length;
  }

  /** All applied writes. */
  total(): number {
    return this.log.filter((entry) => entry.applied).length;
  }

  /** Applied writes per kind and method, e.g. `{ customformat: { POST: 2 } }`. */
  counts(): Partial<Record<EntityKind, Partial<Record<WriteMethod, number>>>> {
    const counts: Partial<Record<EntityKind, Partial<Record<WriteMethod, number>>>> = {};
    for (const entry of this.log) {
      if (!entry.applied) continue;
      const perKind = (counts[entry.kind] ??= {});
      perKind[entry.method] = (perKind[entry.method] ?? 0) + 1;
    }
    return counts;
  }

  /** Applied writes of a kind, in order. */
  of(kind: EntityKind, method?: WriteMethod): WriteRecord[] {
    return this.log.filter((entry) => entry.applied && entry.kind === kind && (method === undefined || entry.method === method));
  }

  reset(): void {
    this.log.length = 0;
  }
}
