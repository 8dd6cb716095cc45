import { ApiError, unwrap, type ArrgoClient, type components } from '../../client';
import { CliError } from '../errors';
import type { FleetProblem } from '../fleet/load';
import { arrTypeOf } from './fleet';
import type { GroupSpec, ProfileSpec, ScoreTarget, ToolInstance } from './read';

type GuideArrType = components['schemas']['RefGuideArrType'];
type GuideEntity = components['schemas']['RefGuideEntity'];
type ImportResult = components['schemas']['RefGuideImportResult'];
type ImportBody = components['schemas']['RefGuideImport'];
type ProfileCustomFormats = Record<string, { name: string; score: number }[]>;

export interface GuideRef {
  id: number;
  name: string;
}

/** One quality profile's score edits: format name to score, and the profile fields the file sets. */
export interface ProfileEdit {
  profile: string;
  arrType: GuideArrType;
  scores: Record<string, number>;
  fields: Record<string, number | boolean>;
  /** reset_unmatched_scores: every other format of the profile scores 0, except these. */
  reset?: { except: string[]; exceptPatterns: string[] };
  /** null: a dry run; else whether the stored profile changed. */
  changed: boolean | null;
}

export interface ImportOutcome {
  created: ImportResult['created'];
  /** Custom formats the database had, merged with the guide's definition for the instance's app family. */
  updated: ImportResult['updated'];
  /** Names the database had and that already match the guide (never ones this import created or updated). */
  skipped: ImportResult['skipped'];
  profileEdits: ProfileEdit[];
  /** Quality profile names each instance syncs. */
  profiles: Map<ToolInstance, string[]>;
  /** The quality definitions each instance syncs (quality_definition). */
  qualityDefinitions: Map<ToolInstance, string>;
  notCarried: FleetProblem[];
}

const isTrue = (value: unknown) => value === true || value === 'true';

/**
 * Writes the guide's custom formats and profiles a tool's instances use into the database's user
 * layer (through the reference-guide import), then their scores and profile fields (one entity edit
 * per profile). A dry run plans the imports and edits nothing.
 */
export async function importIntoDatabase(client: ArrgoClient, instances: ToolInstance[], databaseId: number, guides: Map<GuideArrType, GuideRef>, dryRun: boolean, file: string): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { created: [], updated: [], skipped: [], profileEdits: [], profiles: new Map(), qualityDefinitions: new Map(), notCarried: [] };
  const entities = new Map<string, Promise<GuideEntity>>();
  const guideEntity = (guide: GuideRef, type: GuideEntity['type'], refId: string) => {
    const key = `${guide.id}:${type}:${refId}`;
    if (!entities.has(key)) entities.set(key, unwrap(client.GET('/api/v1/ref-guide/sources/{id}/entities/{refId}', { params: { path: { id: guide.id, refId }, query: { type } } })));
    return entities.get(key)!;
  };
  const groupsOf = new Map<number, Promise<GuideEntity[]>>();
  const allGroups = (guide: GuideRef) => {
    if (!groupsOf.has(guide.id)) groupsOf.set(guide.id, listGroups(client, guide, guideEntity));
    return groupsOf.get(guide.id)!;
  };
  const imported = new Map<string, ImportResult>();
  const importEntity = async (guide: GuideRef, type: ImportBody['type'] & string, refId: string, extra: Pick<ImportBody, 'scoreSet' | 'preferredRatio'> = {}): Promise<ImportResult> => {
    const key = `${type}:${refId}:${extra.preferredRatio ?? ''}`;
    if (imported.has(key)) return imported.get(key)!;
    const answer = await unwrap(
      // merge: a format the database has gets the guide's conditions for this app family, as Recyclarr synced them.
      client.POST('/api/v1/ref-guide/sources/{id}/entities/{refId}/import', { params: { path: { id: guide.id, refId } }, body: { databaseId, type, dryRun, existingFormats: 'merge', ...extra } }),
    );
    const listed = (o: { entityType: string; name: string }) => (e: { entityType: string; name: string }) => o.entityType === e.entityType && o.name === e.name;
    for (const c of answer.created) if (!outcome.created.some(listed(c))) outcome.created.push(c);
    for (const u of answer.updated) if (!outcome.updated.some(listed(u))) outcome.updated.push(u);
    for (const s of answer.skipped) if (![...outcome.created, ...outcome.updated, ...outcome.skipped].some(listed(s))) outcome.skipped.push(s);
    imported.set(key, answer);
    return answer;
  };
  const edits = new Map<string, ProfileEdit>();
  const editOf = (profile: string, arrType: GuideArrType) => {
    if (!edits.has(profile)) edits.set(profile, { profile, arrType, scores: {}, fields: {}, changed: null });
    return edits.get(profile)!;
  };

  for (const instance of instances) {
    const arrType = arrTypeOf(instance);
    if (arrType === 'music_app') {
      outcome.profiles.set(instance, []);
      continue;
    }
    const guide = guides.get(arrType);
    if (!guide) throw new CliError(`No reference-guide source for ${arrType} (needed by ${instance.section}.${instance.name}): link one (docs/ref-guide.md) or pass --guide`);
    const notFound = (line: number, what: string) => (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) {
        outcome.notCarried.push({ file, line, column: 1, message: `${instance.section}.${instance.name}: ${what} is not in the guide ${guide.name}` });
        return undefined;
      }
      throw error;
    };
    if (instance.qualityDefinition) {
      const { type, preferredRatio, line } = instance.qualityDefinition;
      const size = (await listEntities(client, guide, 'quality_size')).find((s) => s.name === type);
      if (!size) outcome.notCarried.push({ file, line, column: 1, message: `${instance.section}.${instance.name}.quality_definition: the guide ${guide.name} has no quality size of type ${type}` });
      else {
        const answer = await importEntity(guide, 'quality_size', size.refId, preferredRatio === undefined ? {} : { preferredRatio });
        const definitions = [...answer.created, ...answer.skipped].find((e) => e.entityType === `${arrType}_quality_definitions`);
        if (definitions) outcome.qualityDefinitions.set(instance, definitions.name);
      }
    }
    // Guide-backed profiles: the guide names them and gives their score set.
    const profiles: { spec: ProfileSpec; name: string; scoreSet: string; guideId?: string }[] = [];
    for (const spec of instance.qualityProfiles) {
      if (!spec.trashId) {
        profiles.push({ spec, name: spec.name!, scoreSet: spec.scoreSet ?? 'default' });
        continue;
      }
      const entity = await guideEntity(guide, 'quality_profile', spec.trashId).catch(notFound(spec.line, `quality profile ${spec.trashId}`));
      if (!entity) continue;
      await importEntity(guide, 'quality_profile', spec.trashId, spec.scoreSet ? { scoreSet: spec.scoreSet } : {});
      profiles.push({ spec, name: entity.name, scoreSet: spec.scoreSet ?? String(entity.entity.trash_score_set ?? 'default'), guideId: spec.trashId });
    }
    const profileByTarget = (target: ScoreTarget) => profiles.find((p) => (target.trashId ? p.guideId === target.trashId : p.name === target.name)) ?? (target.name ? { name: target.name, scoreSet: 'default' } : undefined);
    const assign = async (cfTrashId: string, targets: { name: string; scoreSet: string; score?: number }[], line: number) => {
      const cf = await guideEntity(guide, 'custom_format', cfTrashId).catch(notFound(line, `custom format ${cfTrashId}`));
      if (!cf) return;
      await importEntity(guide, 'custom_format', cfTrashId);
      for (const target of targets) {
        const scores = cf.scores ?? {};
        editOf(target.name, arrType).scores[cf.name] = target.score ?? scores[target.scoreSet] ?? scores.default ?? 0;
      }
    };
    const targetsOf = (targets: ScoreTarget[], line: number) =>
      targets.flatMap((t) => {
        const profile = profileByTarget(t);
        if (!profile) outcome.notCarried.push({ file, line: t.line ?? line, column: 1, message: `${instance.section}.${instance.name}: assign_scores_to names the guide profile ${t.trashId}, which quality_profiles does not list` });
        return profile ? [{ name: profile.name, scoreSet: profile.scoreSet, ...(t.score !== undefined ? { score: t.score } : {}) }] : [];
      });

    // A guide-backed profile's own formats are assigned by the guide (reset_unmatched_scores keeps them).
    for (const profile of profiles.filter((p) => p.guideId)) {
      const entity = await guideEntity(guide, 'quality_profile', profile.guideId!);
      for (const trashId of Object.values((entity.entity.formatItems ?? {}) as Record<string, string>)) await assign(trashId, [profile], profile.spec.line);
    }
    // Default groups of guide-backed profiles (less skip), then the groups the file adds.
    const groupTargets: { group: GroupSpec; targets: { name: string; scoreSet: string }[] }[] = [];
    for (const profile of profiles.filter((p) => p.guideId)) {
      for (const group of await allGroups(guide)) {
        if (!isTrue(group.entity.default) || instance.skipGroups.includes(group.refId) || !includes(group, profile.guideId!)) continue;
        if (instance.groups.some((g) => g.trashId === group.refId)) continue;
        groupTargets.push({ group: { trashId: group.refId, select: [], selectAll: false, exclude: [], targets: [], line: profile.spec.line }, targets: [profile] });
      }
    }
    for (const group of instance.groups) {
      const entity = await guideEntity(guide, 'custom_format_group', group.trashId).catch(notFound(group.line, `custom format group ${group.trashId}`));
      if (!entity) continue;
      const targets = group.targets.length ? targetsOf(group.targets, group.line) : profiles.filter((p) => p.guideId && includes(entity, p.guideId));
      if (!targets.length) outcome.notCarried.push({ file, line: group.line, column: 1, message: `${instance.section}.${instance.name}: custom format group ${entity.name} scores no profile (give assign_scores_to, or list a guide profile it includes)` });
      groupTargets.push({ group, targets });
    }
    for (const { group, targets } of groupTargets) {
      const entity = await guideEntity(guide, 'custom_format_group', group.trashId);
      for (const member of groupMembers(entity, group)) await assign(member, targets, group.line);
    }
    const targetNames: string[] = [];
    for (const spec of instance.customFormats) {
      const targets = targetsOf(spec.targets, spec.line);
      targetNames.push(...targets.map((t) => t.name));
      for (const trashId of spec.trashIds) await assign(trashId, targets, spec.line);
    }
    for (const { spec, name } of profiles) {
      const edit = editOf(name, arrType);
      if (spec.minFormatScore !== undefined) edit.fields.minimumCustomFormatScore = spec.minFormatScore;
      if (spec.upgradesAllowed !== undefined) edit.fields.upgradesAllowed = spec.upgradesAllowed;
      if (spec.upgradeUntilScore !== undefined) edit.fields.upgradeUntilScore = spec.upgradeUntilScore;
      if (spec.resetUnmatched) edit.reset = spec.resetUnmatched;
    }
    outcome.profiles.set(instance, [...new Set([...profiles.map((p) => p.name), ...targetNames])]);
  }

  const missing = new Set<string>();
  for (const edit of edits.values()) {
    outcome.profileEdits.push(edit);
    const stored = await unwrap(client.GET('/api/v1/pcd/{databaseId}/entities/{entityType}/{name}', { params: { path: { databaseId, entityType: 'quality_profile', name: edit.profile }, query: {} } })).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    });
    if (!stored?.entity) {
      // A dry run has not created the guide profiles it plans.
      if (dryRun && outcome.created.some((c) => c.entityType === 'quality_profile' && c.name === edit.profile)) continue;
      missing.add(edit.profile);
      const line = instances.flatMap((i) => i.qualityProfiles).find((p) => p.name === edit.profile)?.line ?? 1;
      outcome.notCarried.push({ file, line, column: 1, message: `quality profile ${edit.profile}: not in the database, so neither its scores nor the instances' selection of it are carried over (create the profile there, or name a guide profile by trash_id)` });
      continue;
    }
    if (dryRun) continue;
    const answer = await unwrap(client.PATCH('/api/v1/pcd/{databaseId}/entities/{entityType}/{name}', { params: { path: { databaseId, entityType: 'quality_profile', name: edit.profile } }, body: { data: editedProfile(stored.entity, edit) } }));
    edit.changed = answer.changed;
  }
  outcome.profileEdits = outcome.profileEdits.filter((e) => !missing.has(e.profile));
  for (const [instance, names] of outcome.profiles) outcome.profiles.set(instance, names.filter((n) => !missing.has(n)));
  return outcome;
}

function includes(group: GuideEntity, profileTrashId: string): boolean {
  const include = (group.entity.quality_profiles as { include?: Record<string, string> } | undefined)?.include ?? {};
  return Object.values(include).includes(profileTrashId);
}

/** The formats of a group a file takes: the required and default ones (or all with select_all), plus select, less exclude. */
export function groupMembers(group: GuideEntity, spec: GroupSpec): string[] {
  const members = (group.entity.custom_formats as { trash_id: string; required?: boolean; default?: unknown }[] | undefined) ?? [];
  const chosen = members.filter((m) => spec.selectAll || m.required === true || isTrue(m.default) || spec.select.includes(m.trash_id)).map((m) => m.trash_id);
  return chosen.filter((id) => !spec.exclude.includes(id));
}

async function listGroups(client: ArrgoClient, guide: GuideRef, read: (guide: GuideRef, type: GuideEntity['type'], refId: string) => Promise<GuideEntity>): Promise<GuideEntity[]> {
  const groups: GuideEntity[] = [];
  for (const item of await listEntities(client, guide, 'custom_format_group')) groups.push(await read(guide, 'custom_format_group', item.refId));
  return groups;
}

/** Every guide entity of a type (refId and name), all pages. */
async function listEntities(client: ArrgoClient, guide: GuideRef, type: GuideEntity['type']): Promise<{ refId: string; name: string }[]> {
  const items: { refId: string; name: string }[] = [];
  for (let page = 1; ; page++) {
    const list = await unwrap(client.GET('/api/v1/ref-guide/sources/{id}/entities', { params: { path: { id: guide.id }, query: { type, page, pageSize: 200 } } }));
    items.push(...list.items);
    if (!list.hasNext) return items;
  }
}

/** The profile with the edit's scores and fields: a format already scored keeps its place (all or the family's list), a new one joins the family's list. */
export function editedProfile(entity: Record<string, unknown>, edit: ProfileEdit): Record<string, unknown> {
  const { arrType } = edit;
  const formats = structuredClone((entity.customFormats ?? {}) as ProfileCustomFormats);
  formats[arrType] ??= [];
  const lists = Object.values(formats);
  for (const [name, score] of Object.entries(edit.scores)) {
    const existing = lists.flatMap((list) => list.filter((f) => f.name === name));
    if (existing.length) for (const f of existing) f.score = score;
    else formats[arrType].push({ name, score });
  }
  if (edit.reset) {
    const patterns = edit.reset.exceptPatterns.map((p) => safeRegExp(p));
    for (const list of lists)
      for (const f of list) if (!(f.name in edit.scores) && !edit.reset.except.includes(f.name) && !patterns.some((p) => p?.test(f.name))) f.score = 0;
  }
  return { ...entity, ...edit.fields, customFormats: formats };
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}
