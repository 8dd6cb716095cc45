import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, type Node, type ScalarTag } from 'yaml';
import type { FleetProblem } from '../fleet/load';

/** Which tool wrote the file: they share Recyclarr's instance format; Configarr adds top-level keys and tags. */
export type ImportTool = 'recyclarr' | 'configarr';

/** An instance's API key as the tool's file writes it. */
export type ToolSecret = { env: string } | { secret: string } | { file: string } | { inline: true };

/** Where a score goes: a quality profile by name or by the guide's trash_id. */
export interface ScoreTarget {
  name?: string;
  trashId?: string;
  score?: number;
  line: number;
}

export interface ProfileSpec {
  /** The profile's name (for a guide-backed profile, the guide names it unless this overrides it). */
  name?: string;
  trashId?: string;
  scoreSet?: string;
  /** reset_unmatched_scores: formats not assigned by the file score 0 in this profile, except these names and patterns. */
  resetUnmatched?: { except: string[]; exceptPatterns: string[] };
  minFormatScore?: number;
  upgradesAllowed?: boolean;
  upgradeUntilScore?: number;
  line: number;
}

export interface CustomFormatsSpec {
  trashIds: string[];
  targets: ScoreTarget[];
  line: number;
}

export interface GroupSpec {
  trashId: string;
  select: string[];
  selectAll: boolean;
  exclude: string[];
  targets: ScoreTarget[];
  line: number;
}

export interface ToolInstance {
  name: string;
  /** The app section it is under. */
  section: 'radarr' | 'sonarr' | 'lidarr';
  baseUrl?: string;
  apiKey?: ToolSecret;
  enabled: boolean;
  qualityProfiles: ProfileSpec[];
  customFormats: CustomFormatsSpec[];
  groups: GroupSpec[];
  /** custom_format_groups.skip: default groups of guide-backed profiles left out. */
  skipGroups: string[];
  /** quality_definition: the guide's quality size of that type, preferred sizes at the ratio when given. */
  qualityDefinition?: { type: string; preferredRatio?: number; line: number };
  line: number;
}

/** A construct of the file that the import does not carry over, where it is and why. */
export type NotCarried = FleetProblem;

export interface ToolConfig {
  tool: ImportTool;
  instances: ToolInstance[];
  notCarried: NotCarried[];
}

/** Problems that stop the import (the file is not YAML, or an instance lacks what it needs). */
export class ToolFileError extends Error {
  constructor(readonly problems: FleetProblem[]) {
    super(problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`).join('\n'));
    this.name = 'ToolFileError';
  }
}

const TAGS: Record<ImportTool, ScalarTag[]> = {
  recyclarr: [tag('!secret', (v) => ({ secret: v })), tag('!env_var', (v) => ({ env: v }))],
  configarr: [tag('!secret', (v) => ({ secret: v })), tag('!env', (v) => ({ env: v })), tag('!file', (v) => ({ file: v }))],
};

function tag(name: string, resolve: (value: string) => object): ScalarTag {
  return { tag: name, resolve, identify: () => false } as unknown as ScalarTag;
}

const SECTIONS = ['radarr', 'sonarr', 'lidarr'] as const;
/** Sections of apps arrgo does not manage: reported whole. */
const FOREIGN_SECTIONS = ['readarr', 'whisparr'];

/** Top-level keys of Configarr's file beyond the app sections, and why each is not carried over. */
const CONFIGARR_TOP_LEVEL: Record<string, string> = {
  trashGuideUrl: 'the guide is a reference-guide source in arrgo: link that repository and pass it as --guide',
  trashRevision: 'a reference-guide source follows a branch, not a pinned revision',
  recyclarrConfigUrl: 'templates are not read: the import carries over what this file itself says',
  recyclarrRevision: 'templates are not read: the import carries over what this file itself says',
  localCustomFormatsPath: 'custom formats of your own are not read: import them with `arrgo pcd import`',
  localConfigTemplatesPath: 'templates are not read: the import carries over what this file itself says',
  customFormatDefinitions: 'custom formats of your own are not read: import them with `arrgo pcd import`, or adopt them from the app after `arrgo apply` (POST /instances/{id}/adopt)',
  enableFullGitClone: 'not needed: arrgo fetches the guide itself',
  compatibilityTrashGuide20260219Enabled: 'not needed: arrgo reads the guide as it is',
  silenceTrashConflictWarnings: 'not needed',
  sonarrEnabled: 'per-app switches are not kept: disable the instances instead',
  radarrEnabled: 'per-app switches are not kept: disable the instances instead',
  lidarrEnabled: 'per-app switches are not kept: disable the instances instead',
  readarrEnabled: 'arrgo does not manage Readarr',
  whisparrEnabled: 'arrgo does not manage Whisparr',
};

/** Instance keys and why each is not carried over (the ones carried are read below). */
const INSTANCE_NOT_CARRIED: Record<string, string> = {
  include: 'templates are not read: the import carries over what this file itself says; add their custom formats and profiles to the file, or import them from the guide in the console',
  media_naming: "naming is not imported (arrgo's naming sets every naming field, Recyclarr only the formats): after `arrgo apply`, adopt the app's naming as Recyclarr left it (POST /instances/{id}/adopt, sections mediaManagement)",
  media_management: "media settings are not imported: select the database's media settings in the instance's sync configuration",
  delete_old_custom_formats: "arrgo deletes only what its sync owns, with the sync configuration's deleteUnmanaged (left off)",
  delete_unmanaged_custom_formats: "arrgo deletes only what its sync owns, with the sync configuration's deleteUnmanaged (left off)",
  replace_existing_custom_formats: 'arrgo always takes over the custom formats its sync writes, by name',
  quality_profiles_rename: 'renames are not carried over',
  renameQualityProfiles: 'renames are not carried over',
  cloneQualityProfiles: 'profile copies are not carried over',
  customFormatDefinitions: 'custom formats of your own are not read: import them with `arrgo pcd import`',
  delay_profiles: 'delay profiles are not imported: select a database delay profile in the sync configuration',
  root_folders: 'root folders are not managed by arrgo',
  download_clients: 'download clients are not managed by arrgo',
  metadata_profiles: 'metadata profiles are not imported: select a database metadata profile in the sync configuration',
};

const INSTANCE_READ = new Set(['base_url', 'api_key', 'enabled', 'quality_profiles', 'custom_formats', 'custom_format_groups', 'quality_definition']);

/** Reads a Recyclarr or Configarr file: instances, profiles, scores, groups; everything else is reported with its line. */
export function readToolConfig(text: string, tool: ImportTool, file: string): ToolConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, customTags: TAGS[tool], merge: true, prettyErrors: false });
  const at = (node: unknown, message: string): FleetProblem => {
    const offset = isNode(node) && node.range ? node.range[0] : 0;
    const { line, col } = lines.linePos(offset);
    return { file, line, column: col, message };
  };
  if (doc.errors.length) throw new ToolFileError(doc.errors.map((e) => ({ ...positionOf(lines, file, e.pos[0]), message: e.message.split('\n')[0] })));
  const root = doc.contents;
  if (!isMap(root)) throw new ToolFileError([at(root, `not a ${tool} configuration: expected a mapping with radarr: or sonarr:`)]);
  const notCarried: NotCarried[] = [];
  const problems: FleetProblem[] = [];
  const instances: ToolInstance[] = [];
  const report = (node: unknown, what: string, why: string) => notCarried.push(at(node, `${what}: ${why}`));
  for (const pair of root.items) {
    const key = String(isScalar(pair.key) ? pair.key.value : '');
    if ((SECTIONS as readonly string[]).includes(key)) {
      if (!isMap(pair.value)) continue;
      for (const entry of pair.value.items) {
        const name = String(isScalar(entry.key) ? entry.key.value : '');
        const instance = readInstance(name, key as ToolInstance['section'], entry.value, { at, report, problems, keyNode: entry.key });
        if (instance) instances.push(instance);
      }
    } else if (FOREIGN_SECTIONS.includes(key)) report(pair.key, key, 'arrgo manages Radarr, Sonarr and Lidarr only');
    else if (tool === 'configarr' && key in CONFIGARR_TOP_LEVEL) report(pair.key, key, CONFIGARR_TOP_LEVEL[key]);
    else if (!key.startsWith('x-') && !key.startsWith('.')) report(pair.key, key, `not a ${tool} key arrgo knows`);
  }
  if (problems.length) throw new ToolFileError(problems);
  notCarried.sort((a, b) => a.line - b.line || a.column - b.column);
  return { tool, instances, notCarried };
}

function positionOf(lines: LineCounter, file: string, offset: number): FleetProblem {
  const { line, col } = lines.linePos(offset);
  return { file, line, column: col, message: '' };
}

interface Reader {
  at: (node: unknown, message: string) => FleetProblem;
  report: (node: unknown, what: string, why: string) => void;
  problems: FleetProblem[];
  keyNode: unknown;
}

function readInstance(name: string, section: ToolInstance['section'], node: unknown, r: Reader): ToolInstance | undefined {
  const line = r.at(r.keyNode, '').line;
  if (!isMap(node)) {
    r.problems.push(r.at(r.keyNode, `${section}.${name}: expected a mapping with base_url and api_key`));
    return undefined;
  }
  const value = (key: string) => node.items.find((p) => isScalar(p.key) && p.key.value === key);
  const instance: ToolInstance = { name, section, enabled: true, qualityProfiles: [], customFormats: [], groups: [], skipGroups: [], line };
  const where = `${section}.${name}`;
  for (const pair of node.items) {
    const key = String(isScalar(pair.key) ? pair.key.value : '');
    if (INSTANCE_READ.has(key)) continue;
    r.report(pair.key, `${where}.${key}`, INSTANCE_NOT_CARRIED[key] ?? 'not a key the import knows');
  }
  const baseUrl = value('base_url');
  if (baseUrl && isScalar(baseUrl.value) && typeof baseUrl.value.value === 'string') instance.baseUrl = baseUrl.value.value;
  else if (baseUrl) r.report(baseUrl.key, `${where}.base_url`, 'only a plain URL is carried over (a secret or variable URL is not): set baseUrl in the fleet file');
  else r.report(r.keyNode, `${where}.base_url`, 'missing: set baseUrl in the fleet file');
  const apiKey = value('api_key');
  if (apiKey && isScalar(apiKey.value)) {
    const v = apiKey.value.value;
    instance.apiKey = typeof v === 'string' ? { inline: true } : (v as ToolSecret);
  }
  const enabled = value('enabled');
  if (enabled && isScalar(enabled.value) && enabled.value.value === false) instance.enabled = false;
  if (section === 'lidarr') {
    for (const key of ['quality_profiles', 'custom_formats', 'custom_format_groups', 'quality_definition']) {
      const pair = value(key);
      if (pair) r.report(pair.key, `${where}.${key}`, 'the reference guide has no Lidarr custom formats, profiles or sizes: the instance is carried over without them');
    }
    return instance;
  }
  const sizes = value('quality_definition');
  if (sizes) readQualityDefinition(sizes.value, `${where}.quality_definition`, instance, r);
  const profiles = value('quality_profiles');
  if (profiles && isSeq(profiles.value)) for (const item of profiles.value.items) readProfile(item, where, instance, r);
  const formats = value('custom_formats');
  if (formats && isSeq(formats.value)) {
    for (const item of formats.value.items) {
      const trashIds = stringList(mapValue(item, 'trash_ids'));
      if (!trashIds.length) {
        r.report(item, `${where}.custom_formats`, 'an entry without trash_ids (custom formats of your own are imported with `arrgo pcd import`)');
        continue;
      }
      // quality_profiles is the older name of assign_scores_to.
      instance.customFormats.push({ trashIds, targets: readTargets(mapValue(item, 'assign_scores_to') ?? mapValue(item, 'quality_profiles'), r), line: r.at(item, '').line });
    }
  }
  const groups = value('custom_format_groups');
  if (groups && isMap(groups.value)) {
    instance.skipGroups = stringList(mapValue(groups.value, 'skip'));
    const add = mapValue(groups.value, 'add');
    if (isSeq(add))
      for (const item of add.items) {
        const trashId = scalar(mapValue(item, 'trash_id'));
        if (typeof trashId !== 'string') {
          r.report(item, `${where}.custom_format_groups.add`, 'an entry without trash_id');
          continue;
        }
        instance.groups.push({
          trashId,
          select: stringList(mapValue(item, 'select')),
          selectAll: scalar(mapValue(item, 'select_all')) === true,
          exclude: stringList(mapValue(item, 'exclude')),
          targets: readTargets(mapValue(item, 'assign_scores_to'), r),
          line: r.at(item, '').line,
        });
      }
  } else if (groups && isSeq(groups.value)) {
    // Configarr's form: a list of {trash_guide: [{id}], assign_scores_to}.
    for (const item of groups.value.items) {
      const ids = mapValue(item, 'trash_guide');
      const targets = readTargets(mapValue(item, 'assign_scores_to'), r);
      if (isSeq(ids))
        for (const id of ids.items) {
          const trashId = scalar(mapValue(id, 'id'));
          if (typeof trashId === 'string') instance.groups.push({ trashId, select: [], selectAll: false, exclude: [], targets, line: r.at(id, '').line });
        }
    }
  }
  return instance;
}

function readQualityDefinition(node: unknown, label: string, instance: ToolInstance, r: Reader): void {
  const type = scalar(mapValue(node, 'type'));
  if (typeof type !== 'string') {
    r.report(node, label, 'no type: nothing to take from the guide');
    return;
  }
  const definition: NonNullable<ToolInstance['qualityDefinition']> = { type, line: r.at(node, '').line };
  if (isMap(node))
    for (const pair of node.items) {
      const key = String(isScalar(pair.key) ? pair.key.value : '');
      const v = scalar(isNode(pair.value) ? pair.value : undefined);
      // Recyclarr clamps the ratio to 0..1 (with a warning); so does the import.
      if (key === 'preferred_ratio' && typeof v === 'number') definition.preferredRatio = Math.min(1, Math.max(0, v));
      else if (key !== 'type') r.report(pair.key, `${label}.${key}`, key === 'qualities' ? "sizes of your own are not carried over: edit the database's quality definitions" : 'not carried over');
    }
  instance.qualityDefinition = definition;
}

function readProfile(item: unknown, where: string, instance: ToolInstance, r: Reader): void {
  const line = r.at(item, '').line;
  const name = scalar(mapValue(item, 'name'));
  const trashId = scalar(mapValue(item, 'trash_id'));
  const profile: ProfileSpec = { line, ...(typeof name === 'string' ? { name } : {}), ...(typeof trashId === 'string' ? { trashId } : {}) };
  const label = `${where}.quality_profiles[${profile.name ?? profile.trashId ?? '?'}]`;
  if (!profile.name && !profile.trashId) {
    r.report(item, `${where}.quality_profiles`, 'a profile without name or trash_id');
    return;
  }
  if (!isMap(item)) return;
  for (const pair of item.items) {
    const key = String(isScalar(pair.key) ? pair.key.value : '');
    const v = isNode(pair.value) ? pair.value : undefined;
    if (key === 'name' || key === 'trash_id') continue;
    if (key === 'score_set' && typeof scalar(v) === 'string') profile.scoreSet = scalar(v) as string;
    else if (key === 'min_format_score' && typeof scalar(v) === 'number') profile.minFormatScore = scalar(v) as number;
    else if (key === 'reset_unmatched_scores') {
      if (scalar(mapValue(v, 'enabled')) === true) profile.resetUnmatched = { except: stringList(mapValue(v, 'except')), exceptPatterns: stringList(mapValue(v, 'except_patterns')) };
    } else if (key === 'upgrade' && isMap(v)) {
      for (const u of v.items) {
        const uk = String(isScalar(u.key) ? u.key.value : '');
        const uv = scalar(isNode(u.value) ? u.value : undefined);
        if (uk === 'allowed' && typeof uv === 'boolean') profile.upgradesAllowed = uv;
        else if (uk === 'until_score' && typeof uv === 'number') profile.upgradeUntilScore = uv;
        else r.report(u.key, `${label}.upgrade.${uk}`, uk === 'until_quality' ? "the cutoff quality is not carried over: set it in the database's profile (upgradeUntil)" : 'not carried over');
      }
    } else if (key === 'qualities' || key === 'quality_sort')
      r.report(pair.key, `${label}.${key}`, profile.trashId ? 'the guide profile brings its own qualities' : "qualities are not carried over: the profile's qualities are the database's (a profile the database lacks can be adopted from the app after `arrgo apply`: POST /instances/{id}/adopt)");
    else r.report(pair.key, `${label}.${key}`, 'not carried over');
  }
  if (profile.trashId && profile.name) r.report(item, `${label}.name`, "a guide-backed profile keeps the guide's name in arrgo");
  instance.qualityProfiles.push(profile);
}

function readTargets(node: unknown, r: Reader): ScoreTarget[] {
  if (!isSeq(node)) return [];
  return node.items.flatMap((item) => {
    const name = scalar(mapValue(item, 'name'));
    const trashId = scalar(mapValue(item, 'trash_id'));
    const score = scalar(mapValue(item, 'score'));
    if (typeof name !== 'string' && typeof trashId !== 'string') return [];
    return [{ ...(typeof name === 'string' ? { name } : {}), ...(typeof trashId === 'string' ? { trashId } : {}), ...(typeof score === 'number' ? { score } : {}), line: r.at(item, '').line }];
  });
}

function mapValue(node: unknown, key: string): Node | undefined {
  if (!isMap(node)) return undefined;
  const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
  return isNode(pair?.value) ? pair.value : undefined;
}

function scalar(node: unknown): unknown {
  return isScalar(node) ? node.value : undefined;
}

function stringList(node: unknown): string[] {
  if (!isSeq(node)) return [];
  return node.items.map(scalar).filter((v): v is string => typeof v === 'string');
}
