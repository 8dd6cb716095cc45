import { Document, type ScalarTag } from 'yaml';
import type { FleetConfiguration } from './plan';

/** `!env NAME` in an exported file. */
class EnvReference {
  constructor(readonly env: string) {}
}

const ENV_TAG = {
  tag: '!env',
  identify: (value: unknown) => value instanceof EnvReference,
  resolve: (value: string) => new EnvReference(value),
  stringify: (item: { value: unknown }) => (item.value as EnvReference).env,
} as unknown as ScalarTag;

/** The stable environment variable name of an exported secret: ARRGO_<KIND>_<NAME>_<FIELD>, NAME upper-cased with every other character as _. */
export function secretEnvName(kind: 'INSTANCE' | 'DATABASE' | 'REF_GUIDE' | 'CHANNEL', name: string, field: string): string {
  return `ARRGO_${kind}_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '')}_${field}`;
}

/** The configuration as a fleet file: defaults left out, secrets as `!env` references (never their values). */
export function exportFleet(current: FleetConfiguration, schemaUrl: string): string {
  const doc = new Document(fleetOf(current), { customTags: [ENV_TAG] });
  doc.commentBefore = ` yaml-language-server: $schema=${schemaUrl}\n arrgo fleet file, written by \`arrgo export\`. Secrets are !env references: set them before \`arrgo apply\`.`;
  return doc.toString({ lineWidth: 0 });
}

/** The fleet file's content as JSON (`export -o json`): a secret is `{"env": NAME}`, as the schema allows. */
export function exportFleetJson(current: FleetConfiguration): string {
  return JSON.stringify(fleetOf(current));
}

function fleetOf(current: FleetConfiguration) {
  const databaseNames = new Map(current.databases.map((d) => [d.id, d.name]));
  const syncConfigs = new Map(current.syncConfigs.map((c) => [c.instanceId, c]));
  const source = (kind: 'DATABASE' | 'REF_GUIDE', name: string, s: { kind: string; url: string | null; path: string | null; branch: string | null; tokenSet: boolean }) =>
    s.kind === 'git'
      ? { git: s.url, ...(s.branch && s.branch !== 'main' ? { branch: s.branch } : {}), ...(s.tokenSet ? { token: new EnvReference(secretEnvName(kind, name, 'TOKEN')) } : {}) }
      : { local: s.path };
  const file = {
    version: 1,
    databases: current.databases.map((d) => ({ name: d.name, source: source('DATABASE', d.name, d.source), ...(d.enabled ? {} : { enabled: false }) })),
    refGuideSources: current.refGuideSources.map((s) => ({
      name: s.name,
      arrType: s.arrType,
      source: source('REF_GUIDE', s.name, s.origin),
      ...(s.enabled ? {} : { enabled: false }),
      ...(s.databaseIds.length ? { databases: s.databaseIds.map((id) => databaseNames.get(id) ?? `#${id}`) } : {}),
    })),
    instances: current.instances.map((i) => {
      const sync = syncConfigs.get(i.id);
      return {
        name: i.name,
        type: i.arrType,
        baseUrl: i.baseUrl,
        apiKey: new EnvReference(secretEnvName('INSTANCE', i.name, 'API_KEY')),
        ...(i.enabled ? {} : { enabled: false }),
        ...(i.tags.length ? { tags: i.tags } : {}),
        ...(sync ? { sync: sync.databases.map((d) => ({ database: databaseNames.get(d.databaseId) ?? `#${d.databaseId}`, ...withoutDefaults(d.selection) })) } : {}),
      };
    }),
    channels: current.channels.map((c) => ({
      name: c.name,
      kind: c.kind,
      url: new EnvReference(secretEnvName('CHANNEL', c.name, 'URL')),
      ...(c.secretSet ? { secret: new EnvReference(secretEnvName('CHANNEL', c.name, 'SECRET')) } : {}),
      events: c.events,
      ...(c.enabled ? {} : { enabled: false }),
    })),
    settings: current.settings,
  };
  return file;
}

function withoutDefaults(selection: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(selection).filter(([, value]) => value !== null && value !== false && !(Array.isArray(value) && value.length === 0)));
}
