/**
 * The adoption plan (pure): an app's live state, inverted (inverse.ts), planned against a database's
 * resolved state as user-layer ops.
 *
 * - An entity the database lacks is created (regular expressions first: a pattern the database
 *   already holds under some name is reused, otherwise a regex named after its format and condition
 *   is created).
 * - An entity the database has under the same name becomes an override of the fields that differ.
 *   Where the database's value already syncs to what the app holds (checked with the sync
 *   transform and diff themselves), the database's value is kept, so nothing is overridden for
 *   mere spelling (a 0 that the transform reads as "none", conditions scoped to other apps, scores
 *   the app shares with another family...).
 * - The ops are planned one after the other on a private copy of the resolved state (each against
 *   what the previous ones leave), so they replay in order on the user layer.
 *
 * After the ops, syncing `selection` from the database to the app changes nothing that was adopted.
 */
import type Database from 'better-sqlite3';
import { ARR_TYPES, type ArrType } from '../../arr-types';
import { deepEqual, diff, type FieldChange } from '../../diff/diff';
import { formatPath } from '../../diff/path';
import { AppError } from '../../../errors';
import {
  copyDatabase,
  familyScopedConditionName,
  modelOf,
  planImport,
  planUpdate,
  readEntity,
  regularExpressionPatterns,
  specificationNames,
  type CustomFormatCondition,
  type CustomFormatData,
  type PlannedUserOp,
  type PortableType,
  type QualityDefinitionsData,
  type QualityProfileData,
} from '../../pcd';
import { catalogFromLive } from '../catalog';
import { APP_CONDITION_TYPES, type ConditionType } from '../enums';
import { liveNeeds, planSync } from '../plan';
import { previewChanges } from '../preview';
import { emptySelection, type SyncSelection } from '../selection';
import { qualityNamesOf, scoresFor, type SyncSource } from '../source';
import { transformCustomFormat } from '../transform/custom-formats';
import type { TransformContext } from '../transform/context';
import { transformQualityDefinitions } from '../transform/settings';
import type { LiveState, SyncEntityType, SyncSection } from '../types';
import { invertLiveState, type AdoptedCustomFormat, type AdoptionSkip } from './inverse';

export interface AdoptionEntry {
  entityType: PortableType;
  name: string;
}

export interface AdoptionOverride extends AdoptionEntry {
  /** Database value -> the app's value, in the paths of the PCD entity. */
  fields: FieldChange[];
}

export interface AdoptionOp {
  kind: 'create' | 'update';
  op: PlannedUserOp;
}

export interface AdoptionPlan {
  arrType: ArrType;
  creates: AdoptionEntry[];
  overrides: AdoptionOverride[];
  skipped: AdoptionSkip[];
  unchanged: AdoptionEntry[];
  /** The user ops, in the order they are written. */
  ops: AdoptionOp[];
  /** The sync selection of the adopted entities (every adopted profile, the settings, the first metadata profile). */
  selection: SyncSelection;
}

export interface AdoptionInput {
  arrType: ArrType;
  live: LiveState;
  /** Name of the adopted settings entities (delay profile, naming, media settings, quality definitions). */
  settingsName: string;
  sections: readonly SyncSection[];
}

const MAX_NAME = 100;
/** A selection that syncs every section (planSync skips a section with nothing selected). */
const EVERY_SECTION: SyncSelection = { ...emptySelection(), qualityProfiles: ['*'], delayProfile: '*', naming: '*', mediaSettings: '*', qualityDefinitions: '*', metadataProfile: '*' };

const SECTION_OF: Record<Exclude<SyncEntityType, 'qualityDefinition'>, SyncSection> = {
  customFormat: 'qualityProfiles',
  qualityProfile: 'qualityProfiles',
  delayProfile: 'delayProfiles',
  naming: 'mediaManagement',
  mediaSettings: 'mediaManagement',
  metadataProfile: 'metadataProfiles',
};

class AdoptionPlanner {
  private readonly db: Database.Database;
  private readonly qualityNames: Record<string, string>;
  private readonly ctx: TransformContext;
  private patterns: Record<string, string> = {};
  readonly plan: AdoptionPlan;

  constructor(
    resolved: Database.Database,
    private readonly input: AdoptionInput,
  ) {
    this.db = copyDatabase(resolved).db;
    // Lineage is never read from the copy: without its triggers each op runs much faster.
    const triggers = this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '\\_pcd\\_%' ESCAPE '\\'`).pluck().all() as string[];
    for (const name of triggers) this.db.exec(`DROP TRIGGER "${name}"`);
    this.qualityNames = qualityNamesOf(this.db, input.arrType);
    this.ctx = { arrType: input.arrType, catalog: catalogFromLive(input.arrType, input.live), namespace: null, issues: [] };
    this.plan = { arrType: input.arrType, creates: [], overrides: [], skipped: [], unchanged: [], ops: [], selection: { ...emptySelection() } };
  }

  close(): void {
    this.db.close();
  }

  run(): AdoptionPlan {
    const { arrType } = this.input;
    const languages = this.db.prepare('SELECT name FROM languages ORDER BY name').pluck().all() as string[];
    const adopted = invertLiveState({ ...this.input, qualityNames: this.qualityNames, languages });
    this.plan.skipped.push(...adopted.skipped);
    this.patterns = regularExpressionPatterns(this.db);

    for (const format of adopted.customFormats) this.adoptCustomFormat(format);
    this.patterns = regularExpressionPatterns(this.db);
    const adoptedProfiles: string[] = [];
    for (const profile of adopted.qualityProfiles) if (this.adoptQualityProfile(profile)) adoptedProfiles.push(profile.name);

    const selection = this.plan.selection;
    selection.qualityProfiles = adoptedProfiles.slice(0, 100);
    if (adopted.delayProfile && this.adoptSettings('delay_profile', adopted.delayProfile, 'delayProfile')) selection.delayProfile = adopted.delayProfile.name;
    if (adopted.naming && this.adoptSettings(`${arrType}_naming` as PortableType, adopted.naming, 'naming')) selection.naming = adopted.naming.name;
    if (adopted.mediaSettings && this.adoptSettings(`${arrType}_media_settings` as PortableType, adopted.mediaSettings, 'mediaSettings')) {
      selection.mediaSettings = adopted.mediaSettings.name;
    }
    if (adopted.qualityDefinitions && this.adoptQualityDefinitions(adopted.qualityDefinitions)) selection.qualityDefinitions = adopted.qualityDefinitions.name;
    for (const profile of adopted.metadataProfiles) {
      if (this.adoptSettings('music_app_metadata_profile', profile, 'metadataProfile') && selection.metadataProfile === null) selection.metadataProfile = profile.name;
    }
    return this.plan;
  }

  // ---------------------------------------------------------------- writing

  /** Plans the create or override of one entity and runs it on the copy; false when PCD refuses it (skipped). */
  private write(type: PortableType, data: { name: string }): boolean {
    const existing = readEntity(this.db, type, data.name);
    let op: PlannedUserOp | null;
    try {
      op = existing ? planUpdate(this.db, type, data.name, data) : planImport(this.db, { entityType: type, data });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.plan.skipped.push({ entityType: type, name: data.name, reason: `the database refuses it: ${error.message}` });
      return false;
    }
    const entry = { entityType: type, name: data.name };
    if (!op) {
      this.plan.unchanged.push(entry);
      return true;
    }
    this.db.exec(op.sql);
    if (existing) {
      this.plan.overrides.push({ ...entry, fields: diff(existing.data, data, modelOf(type).diffOptions) });
      this.plan.ops.push({ kind: 'update', op: { ...op, summary: `adopt: ${op.summary}` } });
    } else {
      this.plan.creates.push(entry);
      this.plan.ops.push({ kind: 'create', op: { ...op, summary: `adopt: ${op.summary}` } });
    }
    return true;
  }

  private existing<T>(type: PortableType, name: string): T | null {
    return (readEntity(this.db, type, name)?.data as T | undefined) ?? null;
  }

  // ---------------------------------------------------------------- sync checks

  private source(parts: Partial<SyncSource>): SyncSource {
    return {
      arrType: this.input.arrType,
      qualityProfiles: [],
      customFormats: [],
      regularExpressions: this.patterns,
      delayProfile: null,
      naming: null,
      mediaSettings: null,
      qualityDefinitions: null,
      metadataProfile: null,
      qualityNames: this.qualityNames,
      missing: [],
      ...parts,
    };
  }

  /** What syncing `parts` would change on the app's entity `name` of `entityType` (null: the sync would not produce it). */
  private syncChanges(parts: Partial<SyncSource>, entityType: keyof typeof SECTION_OF, name: string): FieldChange[] | null {
    const { arrType, live } = this.input;
    const { preview } = planSync({ arrType, selection: EVERY_SECTION, source: this.source(parts), live, sections: [SECTION_OF[entityType]] });
    const entry = previewChanges(preview).find(({ change }) => change.entityType === entityType && change.name === name && change.category !== 'unmanaged');
    return entry === undefined || entry.change.action === 'create' ? null : entry.change.fields;
  }

  /** Whether syncing `parts` leaves the app's entity `name` of `entityType` as it is. */
  private inSync(parts: Partial<SyncSource>, entityType: keyof typeof SECTION_OF, name: string): boolean {
    return this.syncChanges(parts, entityType, name)?.length === 0;
  }

  // ---------------------------------------------------------------- custom formats

  /** The app's specification of one condition (null when the transform leaves it out). */
  private specOf(condition: CustomFormatCondition, patterns: Record<string, string>): unknown {
    const ctx = { ...this.ctx, issues: [] };
    const probe: CustomFormatData = { name: 'probe', description: null, includeInRename: false, tags: [], conditions: [condition], tests: [] };
    return transformCustomFormat(probe, ctx, patterns)?.payload.specifications[0] ?? null;
  }

  private appliesHere(condition: CustomFormatCondition): boolean {
    return (condition.arrType === 'all' || condition.arrType === this.input.arrType) && APP_CONDITION_TYPES[this.input.arrType].has(condition.type as ConditionType);
  }

  /** A regex name for a pattern: the database's regex with that exact pattern, else a new one (created now). */
  private regexFor(pattern: string, format: string, condition: string): string | null {
    const owner = Object.keys(this.patterns)
      .sort()
      .find((name) => this.patterns[name] === pattern);
    if (owner) return owner;
    const stem = `${format}: ${condition}`.slice(0, MAX_NAME).trim();
    let name = stem;
    for (let n = 2; name in this.patterns; n++) name = `${stem.slice(0, MAX_NAME - String(n).length - 3).trim()} (${n})`;
    if (!this.write('regular_expression', { name, pattern, regex101Id: null, description: null, tags: [] } as { name: string })) return null;
    this.patterns[name] = pattern;
    return name;
  }

  private adoptCustomFormat(format: AdoptedCustomFormat): void {
    const existing = this.existing<CustomFormatData>('custom_format', format.data.name);
    const probePatterns: Record<string, string> = { ...this.patterns };
    const conditions: CustomFormatCondition[] = [];
    // A specification is matched with the condition the app receives under its name ("Extras (Sonarr)" is sent as "Extras").
    const received = specificationNames(existing?.conditions ?? [], this.input.arrType);
    for (const condition of format.data.conditions) {
      const pattern = format.patterns[condition.name];
      const adopted = pattern === undefined ? condition : ({ ...condition, regularExpression: `\u0000${condition.name}` } as CustomFormatCondition);
      if (pattern !== undefined) probePatterns[`\u0000${condition.name}`] = pattern;
      const kept = existing?.conditions.find((c) => received.get(c.name) === condition.name);
      if (kept && this.appliesHere(kept) && deepEqual(this.specOf(kept, probePatterns), this.specOf(adopted, probePatterns))) {
        conditions.push(kept);
        continue;
      }
      if (pattern === undefined) {
        conditions.push(condition);
        continue;
      }
      const regex = this.regexFor(pattern, format.data.name, condition.name);
      if (regex === null) {
        this.plan.skipped.push({ entityType: 'custom_format', name: format.data.name, reason: `condition "${condition.name}": its regular expression cannot be stored` });
        return;
      }
      conditions.push({ ...condition, regularExpression: regex } as CustomFormatCondition);
    }
    // Conditions for other app families stay; the ones for this app are what the app holds (scoped
    // "<name> (<App>)" where another family's condition has the name, which the app still receives as <name>).
    const others = existing?.conditions.filter((c) => !this.appliesHere(c) && !conditions.includes(c)) ?? [];
    const taken = new Set(others.map((c) => c.name));
    const own = conditions.map((c) => (taken.has(c.name) && !existing?.conditions.includes(c) ? { ...c, name: familyScopedConditionName(c.name, this.input.arrType) } : c));
    const data: CustomFormatData = existing
      ? { ...existing, includeInRename: format.data.includeInRename, conditions: [...own, ...others] }
      : { ...format.data, conditions };
    this.write('custom_format', data);
  }

  // ---------------------------------------------------------------- quality profiles

  private profileChanges(profile: QualityProfileData): FieldChange[] | null {
    const formats: CustomFormatData[] = [];
    for (const name of scoresFor(profile, this.input.arrType).keys()) {
      const format = this.existing<CustomFormatData>('custom_format', name);
      if (format) formats.push(format);
    }
    return this.syncChanges({ qualityProfiles: [profile], customFormats: formats }, 'qualityProfile', profile.name);
  }

  private profileInSync(profile: QualityProfileData): boolean {
    return this.profileChanges(profile)?.length === 0;
  }

  private adoptQualityProfile(adopted: QualityProfileData): boolean {
    const existing = this.existing<QualityProfileData>('quality_profile', adopted.name);
    const merged = existing ? this.mergeProfile(existing, adopted) : adopted;
    // A profile the transform cannot give back as the app holds it (a quality without a PCD name
    // in the middle of its list...) is skipped rather than adopted differently. Scores of skipped
    // formats are reported already.
    const skippedScores = new Set(this.plan.skipped.filter((s) => s.entityType === 'custom_format').map((s) => formatPath(['formatItems', s.name])));
    const changes = this.profileChanges(merged)?.filter((c) => !skippedScores.has(c.field)) ?? null;
    if (changes === null || changes.length > 0) {
      const fields = changes === null ? 'all of it' : [...new Set(changes.map((c) => c.field))].join(', ');
      this.plan.skipped.push({ entityType: 'quality_profile', name: adopted.name, reason: `a sync from PCD would not reproduce it as the app holds it (${fields})` });
      return false;
    }
    return this.write('quality_profile', merged);
  }

  /** The database's profile with the app's values where they sync differently. */
  private mergeProfile(existing: QualityProfileData, adopted: QualityProfileData): QualityProfileData {
    const { arrType, live } = this.input;
    let merged: QualityProfileData = { ...adopted, description: existing.description, tags: existing.tags };
    for (const key of ['upgradesAllowed', 'minimumCustomFormatScore', 'upgradeUntilScore', 'upgradeScoreIncrement', 'languages', 'qualities'] as const) {
      const candidate = { ...merged, [key]: existing[key] };
      if (deepEqual(candidate[key], merged[key]) || this.profileInSync(candidate)) merged = candidate;
    }
    // The database's scores stay when they sync to the app's and name no format the app lacks (a sync would create it).
    const onApp = new Set((live.customFormats ?? []).map((f) => f.name));
    const keepScores = { ...merged, customFormats: existing.customFormats };
    if ([...scoresFor(existing, arrType).keys()].every((name) => onApp.has(name)) && this.profileInSync(keepScores)) return keepScores;
    return { ...merged, customFormats: scopedScores(existing.customFormats, arrType, adopted.customFormats[arrType]) };
  }

  // ---------------------------------------------------------------- settings

  /** A single-entity setting (delay profile, naming, media settings, metadata profile): the database's field values stay where they sync the same. */
  private adoptSettings<T extends { name: string }>(type: PortableType, adopted: T, entityType: 'delayProfile' | 'naming' | 'mediaSettings' | 'metadataProfile'): boolean {
    const existing = this.existing<T>(type, adopted.name);
    if (!existing) return this.write(type, adopted);
    let merged: T = adopted;
    for (const key of Object.keys(existing) as (keyof T)[]) {
      if (key === 'name' || deepEqual(existing[key], merged[key])) continue;
      const candidate = { ...merged, [key]: existing[key] };
      if (this.inSync({ [entityType]: candidate }, entityType, adopted.name)) merged = candidate;
    }
    return this.write(type, merged);
  }

  private adoptQualityDefinitions(adopted: QualityDefinitionsData): boolean {
    const type = `${this.input.arrType}_quality_definitions` as PortableType;
    const existing = this.existing<QualityDefinitionsData>(type, adopted.name);
    if (!existing) return this.write(type, adopted);
    const appValue = (entry: QualityDefinitionsData['entries'][number]) =>
      transformQualityDefinitions({ name: adopted.name, entries: [entry] }, { ...this.ctx, issues: [] }, this.qualityNames).entries[0] ?? null;
    const entries = existing.entries.map((e) => {
      const mine = adopted.entries.find((a) => a.quality === e.quality);
      return mine && !deepEqual(appValue(e), appValue(mine)) ? mine : e;
    });
    for (const a of adopted.entries) if (!entries.some((e) => e.quality === a.quality)) entries.push(a);
    const merged: QualityDefinitionsData = { ...existing, entries };
    return this.write(type, merged);
  }
}

/**
 * Scores that give `arrType` exactly `own` and every other family what it had: scores shared by
 * every family (`all`) move to the other families' own lists (where they have none of their own).
 */
export function scopedScores(current: QualityProfileData['customFormats'], arrType: ArrType, own: QualityProfileData['customFormats'][ArrType]): QualityProfileData['customFormats'] {
  const out: QualityProfileData['customFormats'] = { all: [], movie_app: [...current.movie_app], series_app: [...current.series_app], music_app: [...current.music_app] };
  for (const other of ARR_TYPES) {
    if (other === arrType) continue;
    for (const s of current.all) if (!out[other].some((o) => o.name === s.name)) out[other].push(s);
    out[other].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  out[arrType] = [...own];
  return out;
}

/** The parts of the live state an adoption of `sections` reads. */
export function adoptionLiveNeeds(arrType: ArrType, sections: readonly SyncSection[]): (keyof LiveState)[] {
  return liveNeeds(arrType, EVERY_SECTION, sections);
}

/** Plans the adoption of an app's live state into a database (`resolved`: its resolved state, never written). */
export function planAdoption(resolved: Database.Database, input: AdoptionInput): AdoptionPlan {
  const planner = new AdoptionPlanner(resolved, input);
  try {
    return planner.run();
  } finally {
    planner.close();
  }
}
