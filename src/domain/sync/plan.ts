/**
 * Diff and plan (pure): desired (transformed PCD) against live state, per section, into the spec's
 * SyncChange groups with counts, plus the ordered write plan the apply activity executes.
 *
 * Identity: a custom format or quality profile on the app is arrgo's when the ledger binds its id
 * to the desired entity's identity (so renames, in the PCD or on the app, keep the app's id: an
 * update with a `name` change), else when its name is a desired name (with the namespace suffix
 * when a namespace is set); see ledger.ts. Custom formats and quality profiles on the app that are
 * not desired are unmanaged: reported with category `unmanaged` and an `unmanagedReason`, as
 * `delete` (and planned for deletion) only when the selection sets deleteUnmanaged, otherwise as
 * `unchanged`. The single-entity sections (delay profile 1, naming, media settings, quality
 * definitions, the selected metadata profile) have no unmanaged entries.
 *
 * Write plan: steps in dependency order (custom formats, then the quality profiles that score them,
 * then the settings, then the metadata profile, deletes last: profiles before formats). Each step
 * names its target by (kind, name on the app), and upserts of ledger-bound entities also by the
 * app id (`remoteId`): the executor PUTs that id while it exists, else finds the name, so an entity
 * an earlier attempt created or renamed is updated instead of duplicated. The plan's `bindings`
 * are what the apply writes to the ledger.
 */
import type { ArrType } from '../arr-types';
import { diff } from '../diff';
import { catalogFromLive } from './catalog';
import { displayName } from './namespace';
import { appSections, sectionSelected, type SyncSelection } from './selection';
import type { SyncSource } from './source';
import { matchEntities, UNMANAGED_REASON_TEXT, unmanagedReason, type IdentityBinding, type IdentitySummary, type LedgerEntityType, type LedgerEntry } from './ledger';
import {
  GLOBAL_DELAY_PROFILE_ID,
  transformSource,
  type DelayProfileFields,
  type DesiredQualityDefinition,
  type DesiredState,
  type QualityProfileBody,
} from './transform';
import {
  type LiveState,
  type SectionOutcome,
  type SyncAction,
  type SyncChange,
  type SyncEntityType,
  type SyncPreview,
  type SyncSection,
} from './types';
import type { CustomFormatPayload, MetadataProfilePayload } from '../app-resources';
import type { FieldChange } from '../diff';
import { countActions } from './preview';
import {
  CUSTOM_FORMAT_DIFF,
  customFormatView,
  formatScoresOf,
  metadataProfileView,
  QUALITY_PROFILE_DIFF,
  qualityDefinitionView,
  qualityProfileView,
  restrictCustomFormatView,
  SETTINGS_DIFF,
  settingsView,
} from './views';

// ---------------------------------------------------------------- write plan

interface StepBase {
  /** Stable identity of the step within a plan: `<kind>:<op>:<name>`. */
  id: string;
  section: SyncSection;
  entityType: SyncEntityType;
  /** The action the preview showed (the executor re-resolves it against the app at write time). */
  action: Exclude<SyncAction, 'unchanged'>;
  /** Name on the app (namespaced); for settings steps, the PCD entity name. */
  name: string;
  /** Display name (namespace stripped). */
  displayName: string;
}

/** The ledger's side of a custom format or quality profile upsert. */
interface BoundStep {
  /** The app id the ledger binds (null: none); the executor PUTs it while it exists, else finds the entity by name. */
  remoteId?: number | null;
  /** The desired entity's scoped identity. */
  identity?: string;
}

/** Create or update a custom format, found by its bound id or by name. */
export interface CustomFormatUpsertStep extends StepBase, BoundStep {
  kind: 'customFormat';
  op: 'upsert';
  payload: CustomFormatPayload;
}

/** Create or update a quality profile, found by its bound id or by name; formatItems are completed from the app's custom formats. */
export interface QualityProfileUpsertStep extends StepBase, BoundStep {
  kind: 'qualityProfile';
  op: 'upsert';
  body: QualityProfileBody;
  /** Scores by custom format name on the app; every other format scores 0. */
  formatScores: Record<string, number>;
}

/** Create or update a Lidarr metadata profile, found by name. */
export interface MetadataProfileUpsertStep extends StepBase {
  kind: 'metadataProfile';
  op: 'upsert';
  payload: MetadataProfilePayload;
}

/** Read-modify-write of delay profile 1 (tags stay empty, order is kept). */
export interface DelayProfileMergeStep extends StepBase {
  kind: 'delayProfile';
  op: 'merge';
  remoteId: number;
  fields: DelayProfileFields;
}

/** Read-modify-write of the naming or media-management config: settings arrgo does not own are kept. */
export interface ConfigMergeStep extends StepBase {
  kind: 'naming' | 'mediaManagement';
  op: 'merge';
  fields: Record<string, unknown>;
}

/** Bulk update of quality definitions, matched by the app's quality name. */
export interface QualityDefinitionsMergeStep extends StepBase {
  kind: 'qualityDefinitions';
  op: 'merge';
  entries: DesiredQualityDefinition[];
}

/** Delete an unmanaged custom format or quality profile: only when both its id and name still match. */
export interface DeleteStep extends StepBase {
  kind: 'customFormat' | 'qualityProfile';
  op: 'delete';
  remoteId: number;
}

export type PlanStep =
  | CustomFormatUpsertStep
  | QualityProfileUpsertStep
  | MetadataProfileUpsertStep
  | DelayProfileMergeStep
  | ConfigMergeStep
  | QualityDefinitionsMergeStep
  | DeleteStep;

export interface WritePlan {
  version: 1;
  arrType: ArrType;
  steps: PlanStep[];
  /** Every desired custom format and quality profile with the app entity it is bound to (the apply writes them to the ledger). */
  bindings?: IdentityBinding[];
}

export const WRITE_PLAN_VERSION = 1;

// ---------------------------------------------------------------- planning

export interface PlanInput {
  arrType: ArrType;
  selection: SyncSelection;
  source: SyncSource;
  live: LiveState;
  /** Sections to preview; default every section of the app family. Sections with nothing selected are skipped. */
  sections?: readonly SyncSection[];
  /** The instance's ledger (absent: entities are matched by name only). */
  ledger?: readonly LedgerEntry[];
}

export interface SyncPlan {
  preview: SyncPreview;
  plan: WritePlan;
  /** How the custom formats and quality profiles were bound (the preview body's `identity`). */
  identity: IdentitySummary;
  /** The desired app entities the preview was computed from. */
  desired: DesiredState;
}

function change(
  entityType: SyncEntityType,
  name: string,
  action: SyncAction,
  remoteId: number | null,
  fields: FieldChange[] = [],
  category?: SyncChange['category'],
): SyncChange {
  const out: SyncChange = { entityType, name, action, remoteId, fields: action === 'update' ? fields : [] };
  if (category) out.category = category;
  return out;
}

/** An app entity no desired entity stands for, with the ledger's reason. */
function unmanagedChange(entityType: LedgerEntityType, name: string, remoteId: number, deleteUnmanaged: boolean, ledger: readonly LedgerEntry[]): SyncChange {
  const reason = unmanagedReason(remoteId, entityType, ledger);
  return { ...change(entityType, name, deleteUnmanaged ? 'delete' : 'unchanged', remoteId, [], 'unmanaged'), unmanagedReason: reason, reason: UNMANAGED_REASON_TEXT[reason] };
}

/** The `name` FieldChange of an entity matched under another name (path `name`: app names, live -> desired). */
function renameFields(liveName: string, desiredName: string): FieldChange[] {
  return liveName === desiredName ? [] : [{ field: 'name', type: 'changed', current: liveName, desired: desiredName }];
}

const updateOrUnchanged = (fields: FieldChange[]): SyncAction => (fields.length > 0 ? 'update' : 'unchanged');

/**
 * The parts of the live state a preview of `sections` reads for this selection (what the preview
 * activity must fetch). `qualityDefinitionLimits` is optional: the documented limits apply without it.
 */
export function liveNeeds(arrType: ArrType, selection: SyncSelection, sections?: readonly SyncSection[]): (keyof LiveState)[] {
  const wanted = sections ?? appSections(arrType);
  const on = (s: SyncSection) => wanted.includes(s) && sectionSelected(arrType, selection, s);
  const needs = new Set<keyof LiveState>();
  if (on('qualityProfiles')) {
    for (const part of ['customFormats', 'qualityProfiles', 'qualityDefinitions'] as const) needs.add(part);
    if (arrType !== 'music_app') needs.add('languages');
  }
  if (on('delayProfiles')) needs.add('delayProfiles');
  if (on('mediaManagement')) {
    if (selection.naming !== null) needs.add('naming');
    if (selection.mediaSettings !== null) needs.add('mediaManagement');
    if (selection.qualityDefinitions !== null) {
      needs.add('qualityDefinitions');
      if (arrType !== 'music_app') needs.add('qualityDefinitionLimits');
    }
  }
  if (on('metadataProfiles')) needs.add('metadataProfiles');
  return [...needs];
}

function requireLive(arrType: ArrType, selection: SyncSelection, sections: readonly SyncSection[], live: LiveState): void {
  for (const part of liveNeeds(arrType, selection, sections)) {
    if (part === 'qualityDefinitionLimits') continue;
    if (live[part] === undefined || live[part] === null) throw new Error(`planSync: live.${part} is required for this selection`);
  }
}

export function planSync(input: PlanInput): SyncPlan {
  const { arrType, selection, live } = input;
  if (input.source.arrType !== arrType) throw new Error(`planSync: the source was read for ${input.source.arrType}, not ${arrType}`);
  const available = appSections(arrType);
  const requested = (input.sections ?? available).filter((s, i, all) => available.includes(s) && all.indexOf(s) === i);
  const sectionOutcomes: SectionOutcome[] = requested.map((section) => ({ section, skipped: !sectionSelected(arrType, selection, section) }));
  const sections = sectionOutcomes.filter((o) => !o.skipped).map((o) => o.section);
  requireLive(arrType, selection, sections, live);

  const catalog = catalogFromLive(arrType, live);
  const desired = transformSource(input.source, catalog, { namespace: selection.namespace, sections });
  const ns = selection.namespace;
  const steps: PlanStep[] = [];
  const ledger = input.ledger ?? [];
  const bindings: IdentityBinding[] = [];
  const identity: IdentitySummary = { rebuilt: 0, renamed: 0, stale: 0 };
  /** A desired entity's app name and scoped identity (its PCD name when the source has none). */
  const identityOf = (type: LedgerEntityType, d: { name: string; displayName: string }) => ({ name: d.name, identity: input.source.identities?.[type][d.displayName] ?? d.displayName });
  const deletes: { profiles: DeleteStep[]; formats: DeleteStep[] } = { profiles: [], formats: [] };
  const preview: SyncPreview = {
    arrType,
    sections,
    sectionOutcomes,
    qualityProfiles: null,
    delayProfiles: null,
    mediaManagement: null,
    metadataProfiles: null,
    counts: { create: 0, update: 0, delete: 0, unchanged: 0 },
    issues: desired.issues,
  };
  const stepBase = (section: SyncSection, entityType: SyncEntityType, kind: string, op: string, action: StepBase['action'], name: string, display: string): StepBase => ({
    id: `${kind}:${op}:${name}`,
    section,
    entityType,
    action,
    name,
    displayName: display,
  });

  // ---- quality profiles and the custom formats they score
  if (sections.includes('qualityProfiles')) {
    const liveFormats = live.customFormats!;
    const liveProfiles = live.qualityProfiles!;
    const customFormats: SyncChange[] = [];
    const qualityProfiles: SyncChange[] = [];

    const formatMatches = matchEntities(desired.customFormats.map((d) => identityOf('customFormat', d)), liveFormats, ledger.filter((e) => e.entityType === 'customFormat'), identity);
    const matchedFormats = new Set<number>();
    // The live formats under the names the plan gives them: the profiles' scores follow a renamed format.
    const plannedNames = new Map<number, string>();
    for (const d of desired.customFormats) {
      const match = formatMatches.get(d.name)?.live ?? null;
      const bound = { remoteId: match?.id ?? null, identity: identityOf('customFormat', d).identity };
      const upsert = (action: StepBase['action']): CustomFormatUpsertStep => ({
        ...stepBase('qualityProfiles', 'customFormat', 'customFormat', 'upsert', action, d.name, d.displayName),
        kind: 'customFormat',
        op: 'upsert',
        payload: d.payload,
        ...bound,
      });
      if (!match) {
        const create = upsert('create');
        customFormats.push(change('customFormat', d.displayName, 'create', null));
        steps.push(create);
        bindings.push({ entityType: 'customFormat', identity: bound.identity, appId: null, name: d.name, stepId: create.id });
        continue;
      }
      matchedFormats.add(match.id);
      plannedNames.set(match.id, d.name);
      const want = customFormatView(d.payload);
      const fields = [...renameFields(match.name, d.name), ...diff(restrictCustomFormatView(customFormatView(match), want), want, CUSTOM_FORMAT_DIFF)];
      const action = updateOrUnchanged(fields);
      customFormats.push(change('customFormat', d.displayName, action, match.id, fields));
      const step = action === 'update' ? upsert('update') : null;
      if (step) steps.push(step);
      bindings.push({ entityType: 'customFormat', identity: bound.identity, appId: match.id, name: d.name, stepId: step?.id ?? null });
    }
    for (const f of liveFormats) {
      if (matchedFormats.has(f.id)) continue;
      const name = displayName(f.name, ns);
      customFormats.push(unmanagedChange('customFormat', name, f.id, selection.deleteUnmanaged, ledger));
      if (selection.deleteUnmanaged) {
        deletes.formats.push({ ...stepBase('qualityProfiles', 'customFormat', 'customFormat', 'delete', 'delete', f.name, name), kind: 'customFormat', op: 'delete', remoteId: f.id });
      }
    }

    const viewOptions = { minUpgrade: arrType !== 'music_app', language: arrType === 'movie_app' };
    const formatsAsPlanned = liveFormats.map((f) => ({ id: f.id, name: plannedNames.get(f.id) ?? f.name }));
    const profileMatches = matchEntities(desired.qualityProfiles.map((d) => identityOf('qualityProfile', d)), liveProfiles, ledger.filter((e) => e.entityType === 'qualityProfile'), identity);
    const matchedProfiles = new Set<number>();
    for (const d of desired.qualityProfiles) {
      const match = profileMatches.get(d.name)?.live ?? null;
      const bound = { remoteId: match?.id ?? null, identity: identityOf('qualityProfile', d).identity };
      const step = (action: StepBase['action']): QualityProfileUpsertStep => ({
        ...stepBase('qualityProfiles', 'qualityProfile', 'qualityProfile', 'upsert', action, d.name, d.displayName),
        kind: 'qualityProfile',
        op: 'upsert',
        body: d.body,
        formatScores: d.formatScores,
        ...bound,
      });
      if (!match) {
        const create = step('create');
        qualityProfiles.push(change('qualityProfile', d.displayName, 'create', null));
        steps.push(create);
        bindings.push({ entityType: 'qualityProfile', identity: bound.identity, appId: null, name: d.name, stepId: create.id });
        continue;
      }
      matchedProfiles.add(match.id);
      const fields = [
        ...renameFields(match.name, d.name),
        ...diff(qualityProfileView(match, formatScoresOf(match.formatItems, formatsAsPlanned), viewOptions), qualityProfileView(d.body, d.formatScores, viewOptions), QUALITY_PROFILE_DIFF),
      ];
      const action = updateOrUnchanged(fields);
      qualityProfiles.push(change('qualityProfile', d.displayName, action, match.id, fields));
      const upsert = action === 'update' ? step('update') : null;
      if (upsert) steps.push(upsert);
      bindings.push({ entityType: 'qualityProfile', identity: bound.identity, appId: match.id, name: d.name, stepId: upsert?.id ?? null });
    }
    for (const p of liveProfiles) {
      if (matchedProfiles.has(p.id)) continue;
      const name = displayName(p.name, ns);
      qualityProfiles.push(unmanagedChange('qualityProfile', name, p.id, selection.deleteUnmanaged, ledger));
      if (selection.deleteUnmanaged) {
        deletes.profiles.push({ ...stepBase('qualityProfiles', 'qualityProfile', 'qualityProfile', 'delete', 'delete', p.name, name), kind: 'qualityProfile', op: 'delete', remoteId: p.id });
      }
    }
    preview.qualityProfiles = { section: 'qualityProfiles', customFormats, qualityProfiles };
  }

  // ---- the global delay profile
  if (sections.includes('delayProfiles') && desired.delayProfile) {
    const d = desired.delayProfile;
    const current = live.delayProfiles!.find((p) => p.id === GLOBAL_DELAY_PROFILE_ID);
    if (!current) {
      desired.issues.push({ severity: 'error', section: 'delayProfiles', entityType: 'delayProfile', name: d.displayName, message: 'the app has no global delay profile (id 1)' });
    } else {
      const fields = diff(settingsView(current as unknown as Record<string, unknown>, d.fields), d.fields, SETTINGS_DIFF);
      const action = updateOrUnchanged(fields);
      preview.delayProfiles = { section: 'delayProfiles', profile: change('delayProfile', d.displayName, action, current.id, fields) };
      if (action === 'update') {
        steps.push({
          ...stepBase('delayProfiles', 'delayProfile', 'delayProfile', 'merge', 'update', d.displayName, d.displayName),
          kind: 'delayProfile',
          op: 'merge',
          remoteId: current.id,
          fields: d.fields,
        });
      }
    }
  }

  // ---- naming, quality definitions, media settings
  if (sections.includes('mediaManagement')) {
    const group: NonNullable<SyncPreview['mediaManagement']> = { section: 'mediaManagement', naming: null, qualityDefinitions: [], mediaSettings: null };
    const config = (kind: 'naming' | 'mediaManagement', entityType: 'naming' | 'mediaSettings', d: DesiredState['naming'], current: LiveState['naming']) => {
      if (!d || !current) return null;
      const fields = diff(settingsView(current, d.fields), d.fields, SETTINGS_DIFF);
      const action = updateOrUnchanged(fields);
      if (action === 'update') {
        steps.push({ ...stepBase('mediaManagement', entityType, kind, 'merge', 'update', d.displayName, d.displayName), kind, op: 'merge', fields: d.fields });
      }
      return change(entityType, d.displayName, action, typeof current.id === 'number' ? current.id : 1, fields);
    };
    group.naming = config('naming', 'naming', desired.naming, live.naming);
    if (desired.qualityDefinitions) {
      const changed: DesiredQualityDefinition[] = [];
      for (const entry of desired.qualityDefinitions.entries) {
        const current = live.qualityDefinitions!.find((q) => q.quality.name === entry.quality);
        if (!current) continue;
        const fields = diff(qualityDefinitionView(current), qualityDefinitionView(entry), SETTINGS_DIFF);
        const action = updateOrUnchanged(fields);
        group.qualityDefinitions.push(change('qualityDefinition', entry.quality, action, current.id, fields));
        if (action === 'update') changed.push(entry);
      }
      if (changed.length > 0) {
        const name = desired.qualityDefinitions.displayName;
        steps.push({ ...stepBase('mediaManagement', 'qualityDefinition', 'qualityDefinitions', 'merge', 'update', name, name), kind: 'qualityDefinitions', op: 'merge', entries: changed });
      }
    }
    group.mediaSettings = config('mediaManagement', 'mediaSettings', desired.mediaSettings, live.mediaManagement);
    if (group.naming || group.mediaSettings || group.qualityDefinitions.length > 0) preview.mediaManagement = group;
  }

  // ---- Lidarr metadata profile
  if (sections.includes('metadataProfiles') && desired.metadataProfile) {
    const d = desired.metadataProfile;
    const match = live.metadataProfiles!.find((p) => p.name === d.name);
    const step = (action: StepBase['action']): MetadataProfileUpsertStep => ({
      ...stepBase('metadataProfiles', 'metadataProfile', 'metadataProfile', 'upsert', action, d.name, d.displayName),
      kind: 'metadataProfile',
      op: 'upsert',
      payload: d.payload,
    });
    if (!match) {
      preview.metadataProfiles = { section: 'metadataProfiles', profile: change('metadataProfile', d.displayName, 'create', null) };
      steps.push(step('create'));
    } else {
      const fields = diff(metadataProfileView(match), metadataProfileView(d.payload), SETTINGS_DIFF);
      const action = updateOrUnchanged(fields);
      preview.metadataProfiles = { section: 'metadataProfiles', profile: change('metadataProfile', d.displayName, action, match.id, fields) };
      if (action === 'update') steps.push(step('update'));
    }
  }

  steps.push(...deletes.profiles, ...deletes.formats);
  preview.counts = countActions(preview);
  return { preview, plan: { version: WRITE_PLAN_VERSION, arrType, steps, bindings }, desired, identity };
}

/** What applying one step did (recorded on the run, step by step). */
export type StepOutcomeKind = 'created' | 'updated' | 'deleted' | 'skipped';

export interface StepOutcome {
  index: number;
  stepId: string;
  kind: PlanStep['kind'];
  name: string;
  outcome: StepOutcomeKind;
  /** The app's id of the entity written (null for skipped deletes and bulk updates). */
  remoteId: number | null;
}
