import { startEmulator, type Emulator, type EmulatorApp } from '../../../src/emulators';

export const API_KEY = 'emu-key-3f9d2c7b41a8e6';

export const APPS: EmulatorApp[] = ['radarr', 'sonarr', 'lidarr'];

export interface RawResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** A raw HTTP call to an emulator (the typed clients are tested separately). */
export async function call<T = any>(
  emulator: Emulator,
  method: string,
  path: string,
  body?: unknown,
  options: { apiKey?: string | null; contentType?: string | null; raw?: string; absolute?: boolean } = {},
): Promise<RawResponse<T>> {
  const headers: Record<string, string> = {};
  const key = options.apiKey === undefined ? emulator.apiKey : options.apiKey;
  if (key !== null) headers['X-Api-Key'] = key;
  const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined && options.contentType !== null) headers['Content-Type'] = options.contentType ?? 'application/json';
  const url = `${emulator.baseUrl}${options.absolute ? '' : emulator.apiBase}${path}`;
  const response = await fetch(url, { method, headers, body: payload });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed as T, text, headers: response.headers };
}

export async function withEmulator<T>(app: EmulatorApp, fn: (emulator: Emulator) => Promise<T>): Promise<T> {
  const emulator = await startEmulator({ app, apiKey: API_KEY });
  try {
    return await fn(emulator);
  } finally {
    await emulator.close();
  }
}

/** Every quality id in a profile's items, top level and inside groups. */
export function qualityIdsOf(items: any[]): number[] {
  return items.flatMap((item) => (item.quality ? [item.quality.id] : (item.items ?? []).map((inner: any) => inner.quality.id)));
}

/** A minimal valid release-title custom format. */
export function releaseTitleFormat(name: string, pattern = '\\bHDR\\b') {
  return {
    name,
    includeCustomFormatWhenRenaming: false,
    specifications: [{ name: 'Title', implementation: 'ReleaseTitleSpecification', negate: false, required: false, fields: [{ name: 'value', value: pattern }] }],
  };
}

/** A new quality profile built from GET qualityprofile/schema, with one allowed quality as cutoff. */
export async function newProfile(emulator: Emulator, name: string) {
  const { body: schema } = await call(emulator, 'GET', '/qualityprofile/schema');
  const items = schema.items;
  const first = items.find((item: any) => item.quality);
  first.allowed = true;
  return { ...schema, name, cutoff: first.quality.id };
}
