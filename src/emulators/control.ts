/**
 * HTTP control endpoints under /__emulator/, so another process (the demo, an integration harness)
 * can drive an emulator it did not start. They need the emulator's API key, are never faulted and
 * are not counted as writes.
 *
 *   GET    /__emulator/state           the stored state
 *   POST   /__emulator/reset           fresh-install state; clears faults and the write log
 *   GET    /__emulator/faults          active faults
 *   POST   /__emulator/faults          add a fault (FaultSpec JSON; `pathRegex` for a RegExp path) -> 201 fault
 *   DELETE /__emulator/faults          remove all faults
 *   DELETE /__emulator/faults/{id}     remove one fault
 *   GET    /__emulator/writes          {counts, total, log}
 *   DELETE /__emulator/writes          clear the write log
 */
import type { FaultInjector, FaultSpec } from './faults';
import type { EmulatorState } from './state';
import type { WriteRecorder } from './writes';

export const CONTROL_PREFIX = '/__emulator';

export interface ControlTarget {
  state: EmulatorState;
  faults: FaultInjector;
  writes: WriteRecorder;
  reset(): void;
}

export interface ControlResponse {
  status: number;
  body?: unknown;
}

function parseFaultSpec(raw: string): FaultSpec {
  const parsed = JSON.parse(raw) as FaultSpec & { pathRegex?: string };
  if (!parsed || typeof parsed !== 'object') throw new Error('a fault must be a JSON object');
  const { pathRegex, ...spec } = parsed;
  if (typeof pathRegex === 'string') spec.path = new RegExp(pathRegex);
  return spec;
}

function serializeFault(fault: ReturnType<FaultInjector['list']>[number]) {
  return { ...fault, path: fault.path instanceof RegExp ? `regex:${fault.path.source}` : fault.path };
}

export function handleControl(target: ControlTarget, method: string, path: string, rawBody: string): ControlResponse {
  const route = path.slice(CONTROL_PREFIX.length).replace(/\/+$/, '') || '/';
  if (route === '/state' && method === 'GET') return { status: 200, body: target.state };
  if (route === '/reset' && method === 'POST') {
    target.reset();
    return { status: 200, body: { reset: true } };
  }
  if (route === '/faults') {
    if (method === 'GET') return { status: 200, body: target.faults.list().map(serializeFault) };
    if (method === 'DELETE') {
      target.faults.clear();
      return { status: 200, body: { cleared: true } };
    }
    if (method === 'POST') {
      try {
        return { status: 201, body: serializeFault(target.faults.add(parseFaultSpec(rawBody))) };
      } catch (error) {
        return { status: 400, body: { error: (error as Error).message } };
      }
    }
  }
  const faultId = /^\/faults\/([^/]+)$/.exec(route);
  if (faultId && method === 'DELETE') {
    return target.faults.remove(decodeURIComponent(faultId[1])) ? { status: 200, body: { removed: true } } : { status: 404, body: { error: 'no such fault' } };
  }
  if (route === '/writes') {
    if (method === 'GET') return { status: 200, body: { counts: target.writes.counts(), total: target.writes.total(), log: target.writes.log } };
    if (method === 'DELETE') {
      target.writes.reset();
      return { status: 200, body: { cleared: true } };
    }
  }
  return { status: 404, body: { error: 'unknown control endpoint' } };
}
