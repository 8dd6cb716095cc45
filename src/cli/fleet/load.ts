import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Document, LineCounter, ScalarTag } from 'yaml';
import type { ZodIssue } from 'zod';
import { yamlPackage } from '../yaml-package';
import { fastYamlValue, YAML_MAX_ALIAS_COUNT } from './fast-yaml';
import { FleetFileSchema, type ChannelFile, type DatabaseFile, type FleetFile, type InstanceFile, type RefGuideSourceFile, type SecretValue, type SettingsFile } from './schema';

/** A problem in a fleet file, where it is. */
export interface FleetProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** The fleet a file and its includes declare, merged. */
export interface Fleet {
  databases: DatabaseFile[];
  refGuideSources: RefGuideSourceFile[];
  instances: InstanceFile[];
  channels: ChannelFile[];
  settings: SettingsFile;
  /** Directory of the file each secret was written in (a `!file` path is relative to it). */
  secretBase: Map<object, string>;
}

export class FleetFileError extends Error {
  constructor(readonly problems: FleetProblem[]) {
    super(problems.map(problemText).join('\n'));
    this.name = 'FleetFileError';
  }
}

export function problemText(p: FleetProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

const MAX_INCLUDE_DEPTH = 10;

/** `!env NAME` and `!file path` become `{ env }` and `{ file }`, which the schema and the secret reader understand. */
const SECRET_TAGS: ScalarTag[] = [
  { tag: '!env', resolve: (value: string) => ({ env: value }), identify: () => false },
  { tag: '!file', resolve: (value: string) => ({ file: value }), identify: () => false },
] as unknown as ScalarTag[];

/** Reads a fleet file and its includes (relative paths, no cycles); every problem carries its file, line and column. */
export interface LoadOptions {
  cwd: string;
  /** Accept secrets written inline (plain strings): each is reported in `warnings`. */
  allowInlineSecrets?: boolean;
  warnings?: FleetProblem[];
}

export async function loadFleet(file: string, io: LoadOptions = { cwd: process.cwd() }): Promise<Fleet> {
  const fleet: Fleet = { databases: [], refGuideSources: [], instances: [], channels: [], settings: {}, secretBase: new Map() };
  const problems: FleetProblem[] = [];
  const seenNames = new Map<string, () => FleetProblem>();
  await readOne(path.resolve(io.cwd, file), [], fleet, problems, seenNames, io);
  if (problems.length) throw new FleetFileError(problems);
  return fleet;
}

async function readOne(absolute: string, chain: string[], fleet: Fleet, problems: FleetProblem[], seen: Map<string, () => FleetProblem>, io: LoadOptions, includedAt?: () => FleetProblem): Promise<void> {
  const cwd = io.cwd;
  const shown = path.relative(cwd, absolute) || absolute;
  // A problem with an include is reported where it is named.
  const here = (message: string): FleetProblem => (includedAt ? { ...includedAt(), message } : { file: shown, line: 1, column: 1, message });
  if (chain.includes(absolute)) return void problems.push(here(`include cycle: ${[...chain, absolute].map((f) => path.relative(cwd, f)).join(' -> ')}`));
  if (chain.length > MAX_INCLUDE_DEPTH) return void problems.push(here(`includes nest deeper than ${MAX_INCLUDE_DEPTH}`));
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch {
    return void problems.push(here(`cannot read ${shown}`));
  }
  const source = new FleetSource(shown, text);
  // The fast parse serves a file whose content is valid; any problem is found and placed by `yaml`, as its positions need.
  const quick = fastYamlValue(text);
  let parsed = quick === undefined ? undefined : FleetFileSchema.safeParse(quick);
  if (!parsed?.success) {
    const doc = source.doc();
    for (const error of [...doc.errors, ...doc.warnings]) problems.push(source.at(error.pos[0], error.message.split('\n')[0]));
    if (doc.errors.length) return;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT }) ?? {};
    } catch (error) {
      // yaml throws for an alias without its anchor and for aliases past its count (an entity-expansion guard).
      return void problems.push(source.at(aliasOffset(doc), error instanceof ReferenceError ? error.message : 'the aliases cannot be resolved'));
    }
    parsed = FleetFileSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(source.at(issue.code === 'unrecognized_keys' ? keyOffset(doc, [...issue.path, issue.keys[0]]) : offsetOf(doc, issue.path), issueText(issue)));
      problems.sort((a, b) => a.line - b.line || a.column - b.column);
      return;
    }
  }
  const content: FleetFile = parsed.data;
  const dir = path.dirname(absolute);
  for (const secretPath of inlineSecretPaths(content)) {
    const problem = source.atPath(secretPath, `${secretPath.join('.')}: a secret written inline; use !env NAME or !file path${io.allowInlineSecrets ? ' (accepted: --allow-inline-secrets)' : ', or pass --allow-inline-secrets'}`);
    if (io.allowInlineSecrets) io.warnings?.push(problem);
    else problems.push(problem);
  }
  const kinds = ['databases', 'refGuideSources', 'instances', 'channels'] as const;
  for (const kind of kinds) {
    (content[kind] ?? []).forEach((item, index) => {
      const key = `${kind}:${item.name}`;
      const here = () => source.atPath([kind, index, 'name'], '');
      const earlier = seen.get(key);
      if (earlier) {
        const first = earlier();
        problems.push({ ...here(), message: `${kind} ${JSON.stringify(item.name)} is declared twice (first at ${first.file}:${first.line}:${first.column})` });
      } else seen.set(key, here);
      collectSecrets(item, dir, fleet.secretBase);
      (fleet[kind] as unknown[]).push(item);
    });
  }
  for (const [key, section] of Object.entries(content.settings ?? {})) {
    if (key in fleet.settings) problems.push(source.atPath(['settings', key], `settings.${key} is set twice`));
    (fleet.settings as Record<string, unknown>)[key] = section;
  }
  for (const [index, include] of (content.include ?? []).entries()) {
    await readOne(path.resolve(dir, include), [...chain, absolute], fleet, problems, seen, io, () => source.atPath(['include', index], ''));
  }
}

/** A fleet file's text and, parsed with `yaml` when a problem first needs a place, its document and line positions. */
class FleetSource {
  private parsed?: { doc: Document; lines: LineCounter };

  constructor(
    private readonly shown: string,
    private readonly text: string,
  ) {}

  doc(): Document {
    return this.document().doc;
  }

  at(offset: number, message: string): FleetProblem {
    const { line, col } = this.document().lines.linePos(offset);
    return { file: this.shown, line, column: col, message };
  }

  /** Where a value of the content is written (see offsetOf). */
  atPath(contentPath: (string | number)[], message: string): FleetProblem {
    return this.at(offsetOf(this.doc(), contentPath), message);
  }

  private document(): { doc: Document; lines: LineCounter } {
    if (!this.parsed) {
      const { LineCounter, parseDocument } = yamlPackage();
      const lines = new LineCounter();
      this.parsed = { doc: parseDocument(this.text, { lineCounter: lines, customTags: SECRET_TAGS, merge: true, prettyErrors: false, uniqueKeys: true }), lines };
    }
    return this.parsed;
  }
}

/** Where the file writes a secret as a plain string. */
function inlineSecretPaths(content: FleetFile): (string | number)[][] {
  const found: (string | number)[][] = [];
  content.instances?.forEach((i, n) => isInline(i.apiKey) && found.push(['instances', n, 'apiKey']));
  content.channels?.forEach((c, n) => {
    if (isInline(c.url)) found.push(['channels', n, 'url']);
    if (isInline(c.secret)) found.push(['channels', n, 'secret']);
  });
  for (const kind of ['databases', 'refGuideSources'] as const)
    content[kind]?.forEach((d, n) => 'git' in d.source && isInline(d.source.token) && found.push([kind, n, 'source', 'token']));
  return found;
}

function collectSecrets(value: unknown, dir: string, into: Map<object, string>): void {
  if (!value || typeof value !== 'object') return;
  if ('file' in value || 'env' in value) into.set(value, dir);
  for (const child of Object.values(value)) collectSecrets(child, dir, into);
}

/** Where a schema issue's path points in the document: the deepest node that exists (its key for a missing or unknown key). */
function offsetOf(doc: Document, issuePath: (string | number)[]): number {
  const { isMap, isNode, isScalar } = yamlPackage();
  for (let depth = issuePath.length; depth > 0; depth--) {
    const node = doc.getIn(issuePath.slice(0, depth), true);
    const parent = depth > 1 ? doc.getIn(issuePath.slice(0, depth - 1), true) : doc.contents;
    if (depth === issuePath.length && isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === issuePath[depth - 1]);
      if (pair && isNode(pair.key) && pair.key.range && !isNode(pair.value)) return pair.key.range[0];
      if (pair && isNode(pair.value) && pair.value.range) return pair.value.range[0];
    }
    if (isNode(node) && node.range) return node.range[0];
  }
  return isNode(doc.contents) && doc.contents.range ? doc.contents.range[0] : 0;
}

/** Where the first alias is written whose anchor is not set before it, else the first alias. */
function aliasOffset(doc: Document): number {
  const { isAlias, visit } = yamlPackage();
  const anchors = new Set<string>();
  let unresolved: number | undefined;
  let first: number | undefined;
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) {
        const offset = node.range?.[0] ?? 0;
        first ??= offset;
        if (!anchors.has(node.source)) {
          unresolved = offset;
          return visit.BREAK;
        }
      } else if (node.anchor) anchors.add(node.anchor);
    },
  });
  return unresolved ?? first ?? 0;
}

/** Where a key is written (an unknown key is reported there, not at its value). */
function keyOffset(doc: Document, keyPath: (string | number)[]): number {
  const { isMap, isNode, isScalar } = yamlPackage();
  const parent = keyPath.length > 1 ? doc.getIn(keyPath.slice(0, -1), true) : doc.contents;
  const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === keyPath.at(-1)) : undefined;
  return pair && isNode(pair.key) && pair.key.range ? pair.key.range[0] : offsetOf(doc, keyPath.slice(0, -1));
}

function issueText(issue: ZodIssue): string {
  const where = issue.path.join('.');
  if (issue.code === 'invalid_union') return `${where}: ${unionText(issue)}`;
  if (issue.code === 'unrecognized_keys') return `${where ? `${where}: ` : ''}unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
  return `${where}: ${issue.message}`;
}

function unionText(issue: Extract<ZodIssue, { code: 'invalid_union' }>): string {
  const paths = new Set(issue.unionErrors.flatMap((e) => e.issues.map((i) => i.message)));
  if ([...paths].some((m) => /Expected string|Expected object/.test(m))) return 'must be `!env NAME`, `!file path`, or a mapping as documented';
  return [...paths][0] ?? issue.message;
}

/** Whether a secret value is written inline (a plain string), which needs --allow-inline-secrets. */
export function isInline(value: SecretValue | undefined): value is string {
  return typeof value === 'string';
}
