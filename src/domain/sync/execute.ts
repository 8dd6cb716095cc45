/**
 * Executing a write plan through a port (no I/O of its own): the apply activity passes the app's
 * typed client (RadarrClient, SonarrClient and LidarrClient satisfy SyncWriter), heartbeats from
 * `onStep`, and resumes with `startAt` (and `verifyFirst` for the step that was in flight).
 *
 * Idempotent per entity: every step finds its target on the app when it runs (an upsert bound by the
 * ledger by its app id while that exists, else by (kind, name)), so a step retried after a create or
 * a rename that did happen updates the entity instead of creating another one;
 * deletes need the id and the name to still match and are skipped when the entity is gone; settings
 * are read, merged and written back. The entity lists are read once per run and kept up to date
 * from the app's responses.
 *
 * The pure helpers (qualityProfileWriteBody, mergeSettings, mergeQualityDefinitions,
 * mergeDelayProfile) build the exact request bodies, for executors that drive the app themselves.
 */
import type {
  CustomFormatPayload,
  CustomFormatResource,
  DelayProfileResource,
  MetadataProfilePayload,
  MetadataProfileResource,
  ProfileFormatItemResource,
  QualityDefinitionResource,
} from '../app-resources';
import type { PlanStep, StepOutcome, StepOutcomeKind, WritePlan } from './plan';
import type { DelayProfileFields, DesiredQualityDefinition, QualityProfileBody } from './transform';
import type { AppQuality, LiveQualityProfile, LiveState, NamedId } from './types';
import { verificationNeeds, verifyPlan } from './verify';

/** A quality profile as written: the body plus the complete formatItems. */
export type QualityProfileWrite = QualityProfileBody & { formatItems: ProfileFormatItemResource[] };

/** What applyPlan needs from an app. The typed clients of src/clients implement it. */
export interface SyncWriter {
  listCustomFormats(): Promise<CustomFormatResource[]>;
  createCustomFormat(format: CustomFormatPayload): Promise<CustomFormatResource>;
  updateCustomFormat(format: CustomFormatPayload & { id: number }): Promise<CustomFormatResource>;
  deleteCustomFormat(id: number): Promise<void>;
  listQualityProfiles(): Promise<NamedId[]>;
  createQualityProfile(profile: QualityProfileWrite): Promise<NamedId>;
  updateQualityProfile(profile: QualityProfileWrite & { id: number }): Promise<NamedId>;
  deleteQualityProfile(id: number): Promise<void>;
  listDelayProfiles(): Promise<DelayProfileResource[]>;
  updateDelayProfile(profile: DelayProfileResource): Promise<unknown>;
  getNamingConfig(): Promise<{ id: number }>;
  updateNamingConfig(naming: { id: number }): Promise<unknown>;
  getMediaManagementConfig(): Promise<{ id: number }>;
  updateMediaManagementConfig(config: { id: number }): Promise<unknown>;
  listQualityDefinitions(): Promise<QualityDefinitionResource<AppQuality>[]>;
  updateQualityDefinitions(definitions: QualityDefinitionResource<AppQuality>[]): Promise<unknown>;
  /** Lidarr. */
  listMetadataProfiles?(): Promise<MetadataProfileResource[]>;
  createMetadataProfile?(profile: MetadataProfilePayload): Promise<MetadataProfileResource>;
  updateMetadataProfile?(profile: MetadataProfilePayload & { id: number }): Promise<MetadataProfileResource>;
}

export type { StepOutcome, StepOutcomeKind } from './plan';

export interface ApplyOptions {
  /** Index of the first step to run (resuming after the steps an earlier attempt completed). */
  startAt?: number;
  /**
   * The step at startAt was in flight when an earlier attempt stopped: it may have reached the
   * app. When the app already holds what it would write (read back as a verification would), it
   * is confirmed without writing it again.
   */
  verifyFirst?: boolean;
  /**
   * Another apply of the instance may have written since the steps before startAt were confirmed:
   * every remaining step is read back first. One the app already holds is confirmed without a
   * write; the first one it does not hold stops the apply (AppMovedDuringApply), since writing it
   * could undo what the other apply wrote.
   */
  recheckRemaining?: boolean;
  /** Called after each step (heartbeat with progress). */
  onStep?: (outcome: StepOutcome, total: number) => void | Promise<void>;
}

// ---------------------------------------------------------------- pure request builders

/** The complete formatItems: every custom format on the app, scored or 0. */
export function completeFormatItems(formats: readonly NamedId[], scores: Record<string, number>): ProfileFormatItemResource[] {
  return formats.map((f) => ({ format: f.id, name: f.name, score: scores[f.name] ?? 0 }));
}

export function qualityProfileWriteBody(
  step: { body: QualityProfileBody; formatScores: Record<string, number> },
  formats: readonly NamedId[],
): QualityProfileWrite {
  return { ...structuredClone(step.body), formatItems: completeFormatItems(formats, step.formatScores) };
}

/** A config resource with arrgo's fields written over the live ones. */
export function mergeSettings<T extends { id: number }>(live: T, fields: Record<string, unknown>): T {
  return { ...structuredClone(live), ...structuredClone(fields) };
}

/** Delay profile 1 with arrgo's fields: tags stay empty, the app's order is kept. */
export function mergeDelayProfile(live: DelayProfileResource, fields: DelayProfileFields): DelayProfileResource {
  return { ...structuredClone(live), ...fields, tags: [] };
}

/** The live definitions whose sizes differ from the desired entries, with the desired sizes. */
export function mergeQualityDefinitions(
  live: readonly QualityDefinitionResource<AppQuality>[],
  entries: readonly DesiredQualityDefinition[],
): QualityDefinitionResource<AppQuality>[] {
  const out: QualityDefinitionResource<AppQuality>[] = [];
  for (const entry of entries) {
    const current = live.find((d) => d.quality.name === entry.quality);
    if (!current) continue;
    const same = (current.minSize ?? null) === entry.minSize && (current.maxSize ?? null) === entry.maxSize && (current.preferredSize ?? null) === entry.preferredSize;
    if (same) continue;
    out.push({ ...structuredClone(current), minSize: entry.minSize, maxSize: entry.maxSize, preferredSize: entry.preferredSize });
  }
  return out;
}

// ---------------------------------------------------------------- executor

class Lists {
  private formats: NamedId[] | null = null;
  private profiles: NamedId[] | null = null;
  private metadata: NamedId[] | null = null;

  constructor(private readonly writer: SyncWriter) {}

  async customFormats(): Promise<NamedId[]> {
    this.formats ??= (await this.writer.listCustomFormats()).map((f) => ({ id: f.id, name: f.name }));
    return this.formats;
  }

  async qualityProfiles(): Promise<NamedId[]> {
    this.profiles ??= (await this.writer.listQualityProfiles()).map((p) => ({ id: p.id, name: p.name }));
    return this.profiles;
  }

  async metadataProfiles(): Promise<NamedId[]> {
    if (!this.writer.listMetadataProfiles) throw new Error('applyPlan: the app has no metadata profiles');
    this.metadata ??= (await this.writer.listMetadataProfiles()).map((p) => ({ id: p.id, name: p.name }));
    return this.metadata;
  }

  static upsert(list: NamedId[], entity: NamedId): void {
    const i = list.findIndex((e) => e.id === entity.id);
    if (i >= 0) list[i] = { id: entity.id, name: entity.name };
    else list.push({ id: entity.id, name: entity.name });
  }

  static remove(list: NamedId[], id: number): void {
    const i = list.findIndex((e) => e.id === id);
    if (i >= 0) list.splice(i, 1);
  }

  /** An upsert's target: the bound app id while an entity with it exists, else the entity with the step's name. */
  static target(list: readonly NamedId[], step: { name: string; remoteId?: number | null }): NamedId | undefined {
    return (step.remoteId != null ? list.find((e) => e.id === step.remoteId) : undefined) ?? list.find((e) => e.name === step.name);
  }
}

/** How the executor reads each live part a step is verified against. */
const LIVE_READS: { [K in keyof LiveState]-?: (writer: SyncWriter) => Promise<LiveState[K]> } = {
  customFormats: (w) => w.listCustomFormats(),
  // The typed clients return whole profiles; the port only promises names and ids.
  qualityProfiles: (w) => w.listQualityProfiles() as Promise<LiveQualityProfile[]>,
  qualityDefinitions: (w) => w.listQualityDefinitions(),
  qualityDefinitionLimits: async () => undefined,
  languages: async () => undefined,
  delayProfiles: (w) => w.listDelayProfiles(),
  naming: (w) => w.getNamingConfig() as Promise<LiveState['naming']>,
  mediaManagement: (w) => w.getMediaManagementConfig() as Promise<LiveState['mediaManagement']>,
  metadataProfiles: async (w) => (w.listMetadataProfiles ? w.listMetadataProfiles() : undefined),
};

/** A resumed apply found the app changed under it by another apply: nothing from step `index` on was written. */
export class AppMovedDuringApply extends Error {
  constructor(readonly index: number) {
    super(`step ${index + 1} of the plan: the app no longer holds what the plan was computed against`);
    this.name = 'AppMovedDuringApply';
  }
}

/**
 * A step of a resumed apply, when the app already holds everything it would write (an earlier
 * attempt's write landed, its answer or its record was lost; or another apply wrote the same):
 * its outcome, so it is confirmed without being sent again. Null when it must be written.
 */
async function confirmedOnApp(plan: WritePlan, step: PlanStep, writer: SyncWriter): Promise<{ outcome: StepOutcomeKind; remoteId: number | null } | null> {
  if (step.op === 'delete') return null;
  const live: LiveState = {};
  for (const part of verificationNeeds([step])) (live as Record<string, unknown>)[part] = await LIVE_READS[part](writer);
  const remoteId = targetOnApp(step, live);
  if (remoteId === undefined) return null;
  const outcome: StepOutcome = { index: 0, stepId: step.id, kind: step.kind, name: step.name, outcome: 'updated', remoteId };
  const verification = verifyPlan({ ...plan, steps: [step] }, [outcome], live, new Date());
  return verification.status === 'verified' ? { outcome: step.action === 'create' ? 'created' : 'updated', remoteId } : null;
}

/** The app's id of what an in-flight step writes (null: a settings resource without one), undefined when it is not there. */
function targetOnApp(step: PlanStep, live: LiveState): number | null | undefined {
  switch (step.kind) {
    case 'customFormat':
      return Lists.target(live.customFormats ?? [], step)?.id;
    case 'qualityProfile':
      return Lists.target(live.qualityProfiles ?? [], step)?.id;
    case 'metadataProfile':
      return live.metadataProfiles?.find((p) => p.name === step.name)?.id;
    case 'delayProfile':
      return live.delayProfiles?.find((p) => p.id === step.remoteId)?.id;
    case 'naming':
      return live.naming ? (live.naming.id ?? null) : undefined;
    case 'mediaManagement':
      return live.mediaManagement ? (live.mediaManagement.id ?? null) : undefined;
    case 'qualityDefinitions':
      return null;
  }
}

/** For recheckRemaining: a delete holds when its entity is gone; anything else as confirmedOnApp. */
async function heldByApp(plan: WritePlan, step: PlanStep, writer: SyncWriter): Promise<{ outcome: StepOutcomeKind; remoteId: number | null } | null> {
  if (step.op !== 'delete') return confirmedOnApp(plan, step, writer);
  const entities = step.kind === 'customFormat' ? await writer.listCustomFormats() : await writer.listQualityProfiles();
  return entities.some((e) => e.id === step.remoteId && e.name === step.name) ? null : { outcome: 'skipped', remoteId: null };
}

async function runStep(step: PlanStep, writer: SyncWriter, lists: Lists): Promise<{ outcome: StepOutcomeKind; remoteId: number | null }> {
  switch (step.kind) {
    case 'customFormat': {
      const formats = await lists.customFormats();
      if (step.op === 'delete') {
        const target = formats.find((f) => f.id === step.remoteId && f.name === step.name);
        if (!target) return { outcome: 'skipped', remoteId: null };
        await writer.deleteCustomFormat(target.id);
        Lists.remove(formats, target.id);
        return { outcome: 'deleted', remoteId: target.id };
      }
      const existing = Lists.target(formats, step);
      const payload = structuredClone(step.payload);
      const saved = existing ? await writer.updateCustomFormat({ ...payload, id: existing.id }) : await writer.createCustomFormat(payload);
      Lists.upsert(formats, saved);
      return { outcome: existing ? 'updated' : 'created', remoteId: saved.id };
    }
    case 'qualityProfile': {
      const profiles = await lists.qualityProfiles();
      if (step.op === 'delete') {
        const target = profiles.find((p) => p.id === step.remoteId && p.name === step.name);
        if (!target) return { outcome: 'skipped', remoteId: null };
        await writer.deleteQualityProfile(target.id);
        Lists.remove(profiles, target.id);
        return { outcome: 'deleted', remoteId: target.id };
      }
      const existing = Lists.target(profiles, step);
      const body = qualityProfileWriteBody(step, await lists.customFormats());
      const saved = existing ? await writer.updateQualityProfile({ ...body, id: existing.id }) : await writer.createQualityProfile(body);
      Lists.upsert(profiles, saved);
      return { outcome: existing ? 'updated' : 'created', remoteId: saved.id };
    }
    case 'metadataProfile': {
      if (!writer.createMetadataProfile || !writer.updateMetadataProfile) throw new Error('applyPlan: the app has no metadata profiles');
      const profiles = await lists.metadataProfiles();
      const existing = profiles.find((p) => p.name === step.name);
      const payload = structuredClone(step.payload);
      const saved = existing ? await writer.updateMetadataProfile({ ...payload, id: existing.id }) : await writer.createMetadataProfile(payload);
      Lists.upsert(profiles, saved);
      return { outcome: existing ? 'updated' : 'created', remoteId: saved.id };
    }
    case 'delayProfile': {
      const live = (await writer.listDelayProfiles()).find((p) => p.id === step.remoteId);
      if (!live) throw new Error(`applyPlan: the app has no delay profile ${step.remoteId}`);
      await writer.updateDelayProfile(mergeDelayProfile(live, step.fields));
      return { outcome: 'updated', remoteId: live.id };
    }
    case 'naming': {
      const live = await writer.getNamingConfig();
      await writer.updateNamingConfig(mergeSettings(live, step.fields));
      return { outcome: 'updated', remoteId: live.id };
    }
    case 'mediaManagement': {
      const live = await writer.getMediaManagementConfig();
      await writer.updateMediaManagementConfig(mergeSettings(live, step.fields));
      return { outcome: 'updated', remoteId: live.id };
    }
    case 'qualityDefinitions': {
      const changed = mergeQualityDefinitions(await writer.listQualityDefinitions(), step.entries);
      if (changed.length === 0) return { outcome: 'skipped', remoteId: null };
      await writer.updateQualityDefinitions(changed);
      return { outcome: 'updated', remoteId: null };
    }
  }
}

/**
 * Runs the plan's steps in order from `startAt`; the first failure propagates (the app's typed
 * error), leaving the remaining steps for a retry, which may start over: completed steps are
 * re-resolved against the app and write the same values again.
 */
export async function applyPlan(plan: WritePlan, writer: SyncWriter, options: ApplyOptions = {}): Promise<StepOutcome[]> {
  const lists = new Lists(writer);
  const outcomes: StepOutcome[] = [];
  for (let index = options.startAt ?? 0; index < plan.steps.length; index++) {
    const step = plan.steps[index];
    let result: { outcome: StepOutcomeKind; remoteId: number | null } | null;
    if (options.recheckRemaining) {
      result = await heldByApp(plan, step, writer);
      if (!result) throw new AppMovedDuringApply(index);
    } else {
      const inFlight = options.verifyFirst === true && index === options.startAt;
      result = (inFlight ? await confirmedOnApp(plan, step, writer) : null) ?? (await runStep(step, writer, lists));
    }
    const outcome: StepOutcome = { index, stepId: step.id, kind: step.kind, name: step.name, ...result };
    outcomes.push(outcome);
    await options.onStep?.(outcome, plan.steps.length);
  }
  return outcomes;
}
