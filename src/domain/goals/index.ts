/**
 * Goal engine: turns a preset and five sliders into custom-format scores, thresholds and a quality
 * ladder for one quality profile. Pure and deterministic; versioned by ENGINE_VERSION.
 * See docs/goals.md for the categorizer rules, the policy table, the presets and the formulas.
 */
export { CATEGORIES, isCategory, SCORE_FAMILIES, RELEASE_GROUP_TIERS, AUDIO_CATEGORIES, HDR_CATEGORIES } from './categories';
export type { Category } from './categories';
export { categorize, RULES } from './categorize';
export type { Categorization, Categorized, Uncategorized, CategorySource, GuideHint, GuideCategoryHints, CategorizeOptions } from './categorize';
export { guideGroupCategories, guideHintsFromGroups } from './guide-groups';
export type { GuideCfGroup } from './guide-groups';
export {
  SLIDER_AXES,
  RESOLUTION_CEILINGS,
  SCORE_RANGE,
  SENSITIVITIES,
  CEILING_MATCH_BONUS,
  PRESETS,
  PRESET_IDS,
  presetById,
  scoreOf,
  sliderDelta,
  clampScore,
} from './policy';
export type { SliderAxis, Axis, ResolutionCeiling, GoalWeights, Preset, AxisContribution, CeilingRelation } from './policy';
export { applyCeiling, qualityResolution, ceilingPixels } from './ladder';
export type { LadderItem, QualityLadder, SiblingInstance } from './ladder';
export { compileGoal, thresholdsOf, appliesTo, ENGINE_VERSION, SKIP_REASONS } from './plan';
export type { GoalPlan, Decision, DecisionReason, UncategorizedFormat, Thresholds, ScoreChange, GoalInput, CompiledGoal } from './plan';
export { policyTableMarkdown, presetTableMarkdown } from './tables';
export { GoalSandbox, readProfile } from './sandbox';
export type { SandboxResult, ProfileState } from './sandbox';
