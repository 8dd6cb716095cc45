import type { ScalarTag } from 'yaml';
import { yamlPackage } from '../yaml-package';
import type { FleetConfiguration } from './plan';

/** `!env NAME` in an exported file. */
class EnvReference {
  constructor(readonly env: string) {}
}

/** `!file path` in a written file. */
class FileReference {
  constructor(readonly file: string) {}
}

/** A YAML tag written for instances of a reference class (its one field as the scalar). */
function referenceTag<T extends object>(tag: string, Reference: new (value: string) => T, text: (reference: T) => string): ScalarTag {
  return {
    tag,
    identify: (value: unknown) => value instanceof Reference,
    resolve: (value: string) => new Reference(value),
    stringify: (item: { value: unknown }) => text(item.value as T),
  } as unknown as ScalarTag;
}

const ENV_TAG = referenceTag('!env', EnvReference, (r) => r.env);
const FILE_TAG = referenceTag('!file', FileReference, (r) => r.file);

/** The stable environment variable name of an exported secret: ARRGO_<KIND>_<NAME>_<FIELD>, NAME upper-cased with every other character as _. */
export function secretEnvName(kind: 'INSTANCE' | 'DATABASE' | 'REF_GUIDE' | 'CHANNEL', name: string, field: string): string {
  return `ARRGO_${kind}_${envNamePart(name)}_${field}`;
}

/** A name as part of an environment variable name: upper case, every run of other characters as one _. */
export function envNamePart(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** The configuration as a fleet file: defaults left out, secrets as `!env` references (never their values). */
export function exportFleet(current: FleetConfiguration, schemaUrl: string): string {
  return fleetFileText(fleetOf(current), schemaUrl, 'arrgo fleet file, written by `arrgo export`. Secrets are !env references: set them before `arrgo apply`.');
}

/** A fleet file's text: the schema header, the comment, the content with `{env}`/`{file}` secrets as `!env`/`!file` tags. */
export function fleetFileText(content: object, schemaUrl: string, comment: string): string {
  const { Document } = yamlPackage();
  const doc = new Document(withSecretTags(content), { customTags: [ENV_TAG, FILE_TAG] });
  doc.commentBefore = ` yaml-language-server: $schema=${schemaUrl}\n${comment.split('\n').map((l) => ` ${l}`).join('\n')}`;
  return doc.toString({ lineWidth: 0 });
}

function withSecretTags(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSecretTags);
  if (!value || typeof value !== 'object' || value instanceof EnvReference) return value;
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  if (keys.length === 1 && keys[0] === 'env' && typeof record.env === 'string') return new EnvReference(record.env);
  if (keys.length === 1 && keys[0] === 'file' && typeof record.file === 'string') return new FileReference(record.file);
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, withSecretTags(v)]));
}

/** The fleet file's content as JSON (`export -o json`): a secret is `{"env": NAME}`, as the schema allows. */
export function exportFleetJson(current: FleetConfiguration): string {
  return JSON.stringify(fleetOf(current));
}

/** The fleet file's content of a configuration (also the databases and guides part of an imported file). */
export function fleetOf(current: FleetConfiguration) {
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
