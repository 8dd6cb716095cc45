import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { components } from '../../client';
import { CliError } from '../errors';
import type { Fleet } from './load';
import type { GitOrLocal, SecretValue, SyncEntryFile } from './schema';

export type FleetConfiguration = components['schemas']['FleetConfiguration'];
type Selection = components['schemas']['SyncSelection'];

export type ResourceKind = 'database' | 'refGuideSource' | 'instance' | 'syncConfig' | 'channel' | 'setting';
export type ChangeAction = 'create' | 'update' | 'delete';

/** One field of a change; a secret's `to` names its reference, never its value. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** What applying one change sends: the API request, built when it runs (ids of resources created before it). */
export type ChangeRequest =
  | { call: 'createDatabase' | 'updateDatabase' | 'deleteDatabase'; name: string; body?: Record<string, unknown> }
  | { call: 'createRefGuideSource' | 'updateRefGuideSource' | 'deleteRefGuideSource'; name: string; body?: Record<string, unknown> }
  | { call: 'createInstance' | 'updateInstance' | 'deleteInstance'; name: string; body?: Record<string, unknown> }
  | { call: 'putSyncConfig' | 'deleteSyncConfig'; name: string; entries?: SyncEntryFile[] }
  | { call: 'createChannel' | 'updateChannel' | 'deleteChannel'; name: string; body?: Record<string, unknown> }
  | { call: 'putSetting'; name: SettingName; body: Record<string, unknown> };

export interface Change {
  action: ChangeAction;
  kind: ResourceKind;
  name: string;
  fields: FieldChange[];
  request: ChangeRequest;
}

export type SettingName = 'driftPolling' | 'refGuideRefresh' | 'syncHistoryRetention' | 'snapshots';

/** A secret whose value the apply sends: read from the environment or a file only then (and checked by plan). */
export interface SecretInput {
  value: SecretValue;
  base: string;
}

const SECRET = Symbol('secret');
/** A secret inside a request body: resolved by resolveSecrets just before the request. */
export type SecretMarker = { [SECRET]: SecretInput };

export function secretMarker(value: SecretValue, fleet: Fleet): SecretMarker {
  return { [SECRET]: { value, base: typeof value === 'object' ? (fleet.secretBase.get(value) ?? process.cwd()) : process.cwd() } };
}

/** What a secret is called in a plan: its reference, never its value. */
export function secretLabel(value: SecretValue): string {
  if (typeof value === 'string') return '(inline secret)';
  return 'env' in value ? `!env ${value.env}` : `!file ${value.file}`;
}

export async function readSecret(input: SecretInput, env: NodeJS.ProcessEnv): Promise<string> {
  const { value, base } = input;
  if (typeof value === 'string') return value;
  if ('env' in value) {
    const found = env[value.env];
    if (found === undefined || found === '') throw new CliError(`The environment variable ${value.env} is not set (a secret of the fleet file)`);
    return found;
  }
  try {
    return (await readFile(path.resolve(base, value.file), 'utf8')).replace(/\r?\n$/, '');
  } catch {
    throw new CliError(`Cannot read the secret file ${value.file}`);
  }
}

/** A request body with its secret markers replaced by their values. */
export async function resolveSecrets(body: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value && typeof value === 'object' && SECRET in value) out[key] = await readSecret((value as SecretMarker)[SECRET], env);
    else if (value && typeof value === 'object' && !Array.isArray(value)) out[key] = await resolveSecrets(value as Record<string, unknown>, env);
    else out[key] = value;
  }
  return out;
}

/** Every secret a plan's requests would send (apply reads them; plan checks they can be read). */
export function secretsOf(changes: Change[]): SecretInput[] {
  const found: SecretInput[] = [];
  const walk = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    if (SECRET in value) return void found.push((value as SecretMarker)[SECRET]);
    for (const child of Object.values(value)) walk(child);
  };
  for (const change of changes) walk(change.request);
  return found;
}

const EMPTY_SELECTION: Selection = { qualityProfiles: [], delayProfile: null, naming: null, mediaSettings: null, qualityDefinitions: null, metadataProfile: null, namespace: null, deleteUnmanaged: false };
const SELECTION_KEYS = Object.keys(EMPTY_SELECTION) as (keyof Selection)[];

function selectionOf(entry: SyncEntryFile): Selection {
  const { database: _database, ...fields } = entry;
  void _database;
  return { ...EMPTY_SELECTION, ...fields };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sourceText(source: GitOrLocal): { kind: 'git' | 'local'; location: string; branch: string | null } {
  return 'git' in source ? { kind: 'git', location: source.git, branch: source.branch ?? 'main' } : { kind: 'local', location: source.local, branch: null };
}

function withoutTrailingSlash(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

function uniqueTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
}

/** Raised when the file asks for what arrgo cannot change in place (a database's source): plan exits 1. */
export class UnplannableError extends CliError {}

/**
 * What applying the fleet would change in arrgo's configuration (never in the apps), in apply order:
 * databases, reference-guide sources, instances, sync configurations, channels, settings; then,
 * with prune, the deletions of what the file does not name (instances before the databases they sync from).
 */
export function planFleet(fleet: Fleet, current: FleetConfiguration, options: { prune: boolean }): Change[] {
  const changes: Change[] = [];
  const refusals: string[] = [];
  const databaseNames = new Map(current.databases.map((d) => [d.id, d.name]));
  const declaredDatabases = new Set(fleet.databases.map((d) => d.name));
  const knownDatabase = (name: string) => declaredDatabases.has(name) || current.databases.some((d) => d.name === name);
  // Instances and channels number up to thousands: looked up by name, not searched.
  const instancesByName = new Map(current.instances.map((i) => [i.name, i]));
  const syncConfigsByInstance = new Map(current.syncConfigs.map((c) => [c.instanceId, c]));
  const channelsByName = new Map(current.channels.map((c) => [c.name, c]));

  for (const wanted of fleet.databases) {
    const existing = current.databases.find((d) => d.name === wanted.name);
    const source = sourceText(wanted.source);
    const enabled = wanted.enabled ?? true;
    const token = 'git' in wanted.source ? wanted.source.token : undefined;
    if (!existing) {
      const body = {
        name: wanted.name,
        enabled,
        source: sourceBody(wanted.source, fleet),
      };
      changes.push({ action: 'create', kind: 'database', name: wanted.name, fields: [{ field: 'source', from: null, to: sourceLabel(wanted.source) }, ...(token ? [{ field: 'token', from: null, to: secretLabel(token) }] : [])], request: { call: 'createDatabase', name: wanted.name, body } });
      continue;
    }
    const location = existing.source.kind === 'git' ? existing.source.url : existing.source.path;
    if (existing.source.kind !== source.kind || location !== source.location) {
      refusals.push(`database ${JSON.stringify(wanted.name)}: its source cannot change in place (${existing.source.kind} ${location} -> ${source.kind} ${source.location}); arrgo keeps the database's edits, so link the new source under another name`);
      continue;
    }
    const { fields, body } = sourceUpdate(existing.enabled, existing.source, wanted, fleet);
    if (fields.length) changes.push({ action: 'update', kind: 'database', name: wanted.name, fields, request: { call: 'updateDatabase', name: wanted.name, body } });
  }

  for (const wanted of fleet.refGuideSources) {
    for (const name of wanted.databases ?? []) if (!knownDatabase(name)) refusals.push(`reference-guide source ${JSON.stringify(wanted.name)}: no database named ${JSON.stringify(name)}`);
    const existing = current.refGuideSources.find((s) => s.name === wanted.name);
    const source = sourceText(wanted.source);
    const enabled = wanted.enabled ?? true;
    const databases = wanted.databases ?? [];
    const token = 'git' in wanted.source ? wanted.source.token : undefined;
    if (!existing) {
      const body = {
        name: wanted.name,
        arrType: wanted.arrType,
        enabled,
        origin: sourceBody(wanted.source, fleet),
        databases,
      };
      changes.push({ action: 'create', kind: 'refGuideSource', name: wanted.name, fields: [{ field: 'arrType', from: null, to: wanted.arrType }, { field: 'source', from: null, to: sourceLabel(wanted.source) }, ...(databases.length ? [{ field: 'databases', from: null, to: databases }] : [])], request: { call: 'createRefGuideSource', name: wanted.name, body } });
      continue;
    }
    const location = existing.origin.kind === 'git' ? existing.origin.url : existing.origin.path;
    if (existing.origin.kind !== source.kind || location !== source.location || existing.arrType !== wanted.arrType) {
      refusals.push(`reference-guide source ${JSON.stringify(wanted.name)}: its source and app type cannot change in place; add another source under another name`);
      continue;
    }
    const { fields, body } = sourceUpdate(existing.enabled, existing.origin, wanted, fleet);
    const currentDatabases = existing.databaseIds.map((id) => databaseNames.get(id) ?? `#${id}`);
    if (!sameValue([...currentDatabases].sort(), [...databases].sort())) (fields.push({ field: 'databases', from: currentDatabases, to: databases }), (body.databases = databases));
    if (fields.length) changes.push({ action: 'update', kind: 'refGuideSource', name: wanted.name, fields, request: { call: 'updateRefGuideSource', name: wanted.name, body } });
  }

  const syncChanges: Change[] = [];
  for (const wanted of fleet.instances) {
    const existing = instancesByName.get(wanted.name);
    const baseUrl = withoutTrailingSlash(wanted.baseUrl);
    const enabled = wanted.enabled ?? true;
    const tags = uniqueTags(wanted.tags ?? []);
    if (!existing) {
      const body = { name: wanted.name, arrType: wanted.type, baseUrl, apiKey: secretMarker(wanted.apiKey, fleet), enabled, tags };
      changes.push({
        action: 'create',
        kind: 'instance',
        name: wanted.name,
        fields: [
          { field: 'type', from: null, to: wanted.type },
          { field: 'baseUrl', from: null, to: baseUrl },
          { field: 'apiKey', from: null, to: secretLabel(wanted.apiKey) },
          ...(enabled ? [] : [{ field: 'enabled', from: null, to: false }]),
          ...(tags.length ? [{ field: 'tags', from: null, to: tags }] : []),
        ],
        request: { call: 'createInstance', name: wanted.name, body },
      });
    } else {
      const fields: FieldChange[] = [];
      const body: Record<string, unknown> = {};
      if (existing.arrType !== wanted.type) (fields.push({ field: 'type', from: existing.arrType, to: wanted.type }), (body.arrType = wanted.type));
      if (existing.baseUrl !== baseUrl) (fields.push({ field: 'baseUrl', from: existing.baseUrl, to: baseUrl }), (body.baseUrl = baseUrl));
      if (existing.enabled !== enabled) (fields.push({ field: 'enabled', from: existing.enabled, to: enabled }), (body.enabled = enabled));
      if (!sameValue(existing.tags, tags)) (fields.push({ field: 'tags', from: existing.tags, to: tags }), (body.tags = tags));
      if (!existing.apiKeySet) (fields.push({ field: 'apiKey', from: null, to: secretLabel(wanted.apiKey) }), (body.apiKey = secretMarker(wanted.apiKey, fleet)));
      if (fields.length) changes.push({ action: 'update', kind: 'instance', name: wanted.name, fields, request: { call: 'updateInstance', name: wanted.name, body } });
    }
    for (const entry of wanted.sync ?? []) if (!knownDatabase(entry.database)) refusals.push(`instance ${JSON.stringify(wanted.name)}: sync names no database called ${JSON.stringify(entry.database)}`);
    const stored = existing ? syncConfigsByInstance.get(existing.id) : undefined;
    const storedEntries = (stored?.databases ?? []).map((d) => ({ database: databaseNames.get(d.databaseId) ?? `#${d.databaseId}`, selection: d.selection }));
    const wantedEntries = (wanted.sync ?? []).map((e) => ({ database: e.database, selection: selectionOf(e) }));
    if (wantedEntries.length === 0) {
      if (storedEntries.length) syncChanges.push({ action: 'delete', kind: 'syncConfig', name: wanted.name, fields: [{ field: 'sync', from: storedEntries.map((e) => e.database), to: null }], request: { call: 'deleteSyncConfig', name: wanted.name } });
      continue;
    }
    const fields: FieldChange[] = [];
    for (let i = 0; i < Math.max(storedEntries.length, wantedEntries.length); i++) {
      const before = storedEntries[i];
      const after = wantedEntries[i];
      if (before?.database !== after?.database) fields.push({ field: `sync[${i}].database`, from: before?.database ?? null, to: after?.database ?? null });
      for (const key of SELECTION_KEYS) {
        const from = before ? before.selection[key] : null;
        const to = after ? after.selection[key] : null;
        if (!sameValue(from, to) && (before || !sameValue(to, EMPTY_SELECTION[key]))) fields.push({ field: `sync[${i}].${key}`, from, to });
      }
    }
    if (fields.length) syncChanges.push({ action: stored ? 'update' : 'create', kind: 'syncConfig', name: wanted.name, fields, request: { call: 'putSyncConfig', name: wanted.name, entries: wanted.sync } });
  }
  changes.push(...syncChanges);

  for (const wanted of fleet.channels) {
    const existing = channelsByName.get(wanted.name);
    const enabled = wanted.enabled ?? true;
    const events = [...new Set(wanted.events)];
    if (wanted.secret !== undefined && wanted.kind !== 'webhook') refusals.push(`channel ${JSON.stringify(wanted.name)}: only webhook channels take a secret`);
    if (!existing) {
      const body = { name: wanted.name, kind: wanted.kind, url: secretMarker(wanted.url, fleet), secret: wanted.secret === undefined ? undefined : secretMarker(wanted.secret, fleet), events, enabled };
      changes.push({
        action: 'create',
        kind: 'channel',
        name: wanted.name,
        fields: [
          { field: 'kind', from: null, to: wanted.kind },
          { field: 'url', from: null, to: secretLabel(wanted.url) },
          ...(wanted.secret !== undefined ? [{ field: 'secret', from: null, to: secretLabel(wanted.secret) }] : []),
          { field: 'events', from: null, to: events },
          ...(enabled ? [] : [{ field: 'enabled', from: null, to: false }]),
        ],
        request: { call: 'createChannel', name: wanted.name, body },
      });
      continue;
    }
    const fields: FieldChange[] = [];
    const body: Record<string, unknown> = {};
    if (existing.kind !== wanted.kind) (fields.push({ field: 'kind', from: existing.kind, to: wanted.kind }), (body.kind = wanted.kind));
    if (!sameValue([...existing.events].sort(), [...events].sort())) (fields.push({ field: 'events', from: existing.events, to: events }), (body.events = events));
    if (existing.enabled !== enabled) (fields.push({ field: 'enabled', from: existing.enabled, to: enabled }), (body.enabled = enabled));
    if (!existing.urlSet) (fields.push({ field: 'url', from: null, to: secretLabel(wanted.url) }), (body.url = secretMarker(wanted.url, fleet)));
    if (wanted.secret !== undefined && !existing.secretSet) (fields.push({ field: 'secret', from: null, to: secretLabel(wanted.secret) }), (body.secret = secretMarker(wanted.secret, fleet)));
    if (fields.length) changes.push({ action: 'update', kind: 'channel', name: wanted.name, fields, request: { call: 'updateChannel', name: wanted.name, body } });
  }

  for (const [name, wanted] of Object.entries(fleet.settings) as [SettingName, Record<string, unknown>][]) {
    const stored = current.settings[name] as Record<string, unknown>;
    const fields = Object.entries(wanted)
      .filter(([key, value]) => !sameValue(stored[key], value))
      .map(([key, value]) => ({ field: key, from: stored[key], to: value }));
    if (fields.length) changes.push({ action: 'update', kind: 'setting', name, fields, request: { call: 'putSetting', name, body: { ...pick(stored, Object.keys(wanted)), ...wanted } } });
  }

  if (refusals.length) throw new UnplannableError(refusals.join('\n'));
  if (!options.prune) return changes;

  const declared = (names: { name: string }[]) => new Set(names.map((n) => n.name));
  const instances = declared(fleet.instances);
  const channels = declared(fleet.channels);
  const sources = declared(fleet.refGuideSources);
  for (const i of current.instances) if (!instances.has(i.name)) changes.push({ action: 'delete', kind: 'instance', name: i.name, fields: [], request: { call: 'deleteInstance', name: i.name } });
  for (const c of current.channels) if (!channels.has(c.name)) changes.push({ action: 'delete', kind: 'channel', name: c.name, fields: [], request: { call: 'deleteChannel', name: c.name } });
  for (const s of current.refGuideSources) if (!sources.has(s.name)) changes.push({ action: 'delete', kind: 'refGuideSource', name: s.name, fields: [], request: { call: 'deleteRefGuideSource', name: s.name } });
  for (const d of current.databases) if (!declaredDatabases.has(d.name)) changes.push({ action: 'delete', kind: 'database', name: d.name, fields: [], request: { call: 'deleteDatabase', name: d.name } });
  return changes;
}

function sourceLabel(source: GitOrLocal): string {
  const { kind, location, branch } = sourceText(source);
  return `${kind} ${location}${branch ? ` (${branch})` : ''}`;
}

/** The git or local source of a database or reference-guide source, as the API takes it. */
function sourceBody(source: GitOrLocal, fleet: Fleet): Record<string, unknown> {
  if (!('git' in source)) return { kind: 'local', path: source.local };
  return { kind: 'git', url: source.git, branch: source.branch, token: source.token === undefined ? undefined : secretMarker(source.token, fleet), tokenUsername: source.tokenUsername };
}

/** What changes in a database's or reference-guide source's enabled flag, branch and token (the rest is fixed). */
function sourceUpdate(
  enabledNow: boolean,
  stored: { branch: string | null; tokenSet: boolean },
  wanted: { enabled?: boolean; source: GitOrLocal },
  fleet: Fleet,
): { fields: FieldChange[]; body: Record<string, unknown> } {
  const fields: FieldChange[] = [];
  const body: Record<string, unknown> = {};
  const enabled = wanted.enabled ?? true;
  const source = sourceText(wanted.source);
  const token = 'git' in wanted.source ? wanted.source.token : undefined;
  if (enabledNow !== enabled) (fields.push({ field: 'enabled', from: enabledNow, to: enabled }), (body.enabled = enabled));
  if (source.kind === 'git' && (stored.branch ?? 'main') !== source.branch) (fields.push({ field: 'branch', from: stored.branch ?? 'main', to: source.branch }), (body.branch = source.branch));
  if (token !== undefined && !stored.tokenSet) (fields.push({ field: 'token', from: null, to: secretLabel(token) }), (body.token = secretMarker(token, fleet)));
  if (token === undefined && stored.tokenSet) (fields.push({ field: 'token', from: '(stored)', to: null }), (body.token = null));
  return { fields, body };
}

function pick(record: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in record).map((k) => [k, record[k]]));
}
