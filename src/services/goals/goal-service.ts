/**
 * Goal use cases: preview a goal (nothing persisted) and adopt it as a value-guarded user-layer
 * op on the profile (reverted like any user edit: DELETE /pcd/{databaseId}/user-ops/{opId}).
 */
import { editEffects, type EditEffects } from '../drift/drift-after-edit';
import { CATEGORIES, ENGINE_VERSION, PRESETS, SCORE_RANGE, SENSITIVITIES, SLIDER_AXES, type Category, type Preset, type SliderAxis } from '../../domain/goals';
import { conflict } from '../../errors';
import type { Orm } from '../../persistence/orm';
import type { ServiceDeps } from '../deps';
import { refGuideHints } from './guide-hints';
import type { PcdCacheManager } from '../pcd/cache-manager';
import { UserLayerWriter } from '../pcd/user-ops';
import { databaseVersionOf, previewGoal, type GoalContext, type GoalPreview, type GoalRequest, type GuideHintsProvider } from './goal-preview';
import { Instance, InstanceSyncDatabase } from '../../persistence/entities';

export interface GoalApplyRequest extends GoalRequest {
  /** The engineVersion of the preview the user saw. */
  engineVersion: string;
  /** The databaseVersion of that preview. */
  databaseVersion: string;
}

export interface GoalApplyResult extends GoalPreview {
  /** The stored user ops (empty when the plan changes nothing). */
  ops: { id: number; summary: string }[];
}

/** What a client needs to offer goals: the presets, the policy's sensitivities and the score range. */
export interface GoalCatalog {
  engineVersion: string;
  scoreRange: { min: number; max: number };
  axes: readonly SliderAxis[];
  categories: readonly Category[];
  presets: readonly Preset[];
  sensitivities: Readonly<Record<Category, Readonly<Record<SliderAxis, number>>>>;
}

export function goalCatalog(): GoalCatalog {
  return { engineVersion: ENGINE_VERSION, scoreRange: { ...SCORE_RANGE }, axes: SLIDER_AXES, categories: CATEGORIES, presets: PRESETS, sensitivities: SENSITIVITIES };
}

export class GoalService {
  private readonly writer: UserLayerWriter;

  /** With categorizer hints from the cf-groups of linked reference-guide sources. */
  static of(deps: Pick<ServiceDeps, 'pcdCaches' | 'orm' | 'config' | 'outbox'>): GoalService {
    return new GoalService(deps.pcdCaches, deps.orm, editEffects(deps), refGuideHints(deps.orm));
  }

  constructor(
    private readonly caches: PcdCacheManager,
    private readonly orm: Orm,
    effects: EditEffects,
    private readonly guideHints: GuideHintsProvider | null = null,
  ) {
    this.writer = new UserLayerWriter(orm, caches, effects);
  }

  async preview(request: GoalRequest): Promise<GoalPreview> {
    const cache = await this.caches.get(request.databaseId);
    return previewGoal(cache, request, await this.context(request)).preview;
  }

  /** Reference-guide hints, and the instances of other app families that sync the profile. */
  private async context(request: GoalRequest): Promise<GoalContext> {
    const guide = (await this.guideHints?.(request.databaseId, request.arrType)) ?? null;
    const em = this.orm.em.fork();
    const configs = await em.find(InstanceSyncDatabase, { databaseId: request.databaseId });
    const selects = (selection: Record<string, unknown>) => Array.isArray(selection.qualityProfiles) && selection.qualityProfiles.includes(request.profileName);
    const ids = configs.filter((c) => selects(c.selection)).map((c) => c.instanceId);
    const instances = ids.length > 0 ? await em.find(Instance, { id: { $in: ids }, arrType: { $ne: request.arrType } }, { fields: ['name', 'arrType'] }) : [];
    return { guide, siblingInstances: instances.map((i) => ({ name: i.name, arrType: i.arrType })) };
  }

  /** 409 when the engine or the database moved since the preview the user saw. */
  async apply(request: GoalApplyRequest): Promise<GoalApplyResult> {
    if (request.engineVersion !== ENGINE_VERSION) {
      throw conflict(`The goal engine is now ${ENGINE_VERSION}; the preview was made by ${request.engineVersion}: preview the goal again`, 'engine_changed');
    }
    const context = await this.context(request);
    let preview: GoalPreview | null = null;
    let summary = '';
    const stored = await this.writer.store(request.databaseId, 'update', (cache) => {
      const now = databaseVersionOf(cache);
      if (now !== request.databaseVersion) {
        throw conflict(`Database ${request.databaseId} changed since the preview (version ${request.databaseVersion}, now ${now}): preview the goal again`, 'stale');
      }
      const compiled = previewGoal(cache, request, context);
      preview = compiled.preview;
      if (!compiled.op) return null;
      summary = `goal "${request.preset}" for ${request.arrType}: ${compiled.op.summary}`;
      return { ...compiled.op, summary };
    }, 'goal');
    const after = await this.caches.get(request.databaseId);
    return { ...preview!, databaseVersion: databaseVersionOf(after), ops: stored !== null ? [{ id: stored, summary }] : [] };
  }
}
