/**
 * Drives an emulator running in another process (started with the CLI) through its /__emulator/
 * control endpoints.
 */
import type { FaultSpec } from './faults';
import type { EntityKind } from './router';
import type { EmulatorState } from './state';
import type { WriteMethod, WriteRecord } from './writes';

export interface RemoteFault extends Omit<FaultSpec, 'path'> {
  id: string;
  path?: string;
  remaining: number | null;
  hits: number;
}

export interface RemoteWrites {
  counts: Partial<Record<EntityKind, Partial<Record<WriteMethod, number>>>>;
  total: number;
  log: WriteRecord[];
}

export class EmulatorControlClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/__emulator${path}`, {
      method,
      headers: { 'X-Api-Key': this.apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`emulator control ${method} ${path} failed with HTTP ${response.status}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Adds a fault; a RegExp path is sent as its source. */
  addFault(spec: FaultSpec): Promise<RemoteFault> {
    const { path, ...rest } = spec;
    const body = path instanceof RegExp ? { ...rest, pathRegex: path.source } : { ...rest, path };
    return this.request<RemoteFault>('POST', '/faults', body);
  }

  listFaults(): Promise<RemoteFault[]> {
    return this.request<RemoteFault[]>('GET', '/faults');
  }

  async removeFault(id: string): Promise<void> {
    await this.request('DELETE', `/faults/${encodeURIComponent(id)}`);
  }

  async clearFaults(): Promise<void> {
    await this.request('DELETE', '/faults');
  }

  writes(): Promise<RemoteWrites> {
    return this.request<RemoteWrites>('GET', '/writes');
  }

  async clearWrites(): Promise<void> {
    await this.request('DELETE', '/writes');
  }

  state(): Promise<EmulatorState> {
    return this.request<EmulatorState>('GET', '/state');
  }

  /** Fresh-install state; clears faults and the write log. */
  async reset(): Promise<void> {
    await this.request('POST', '/reset');
  }
}
