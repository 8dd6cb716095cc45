/**
 * The scoring policy: per category a base score (from the preset) and a sensitivity per slider.
 * A slider at w (0..100) contributes round(sensitivity × (w − 50) / 50): 50 is neutral, 0 and 100
 * move a score by the full sensitivity in opposite directions. The resolution ceiling is the fifth
 * axis (see ceilingDelta). Every score is base + the sum of its contributions, clamped to
 * SCORE_RANGE. The tables are rendered in docs/goals.md.
 */
import { CATEGORIES, type Category } from './categories';

/** The four 0..100 sliders, in the order contributions are reported. */
export const SLIDER_AXES = ['qualityVsSize', 'compatibility', 'hdrPreference', 'unwantedStrictness'] as const;
export type SliderAxis = (typeof SLIDER_AXES)[number];
export type Axis = SliderAxis | 'resolutionCeiling';

export const RESOLUTION_CEILINGS = ['720p', '1080p', '2160p'] as const;
export type ResolutionCeiling = (typeof RESOLUTION_CEILINGS)[number];

export interface GoalWeights {
  qualityVsSize: number;
  compatibility: number;
  hdrPreference: number;
  unwantedStrictness: number;
  resolutionCeiling: ResolutionCeiling;
}

/** Scores the goal engine writes stay within this range (the range TRaSH and the apps' UIs work in). */
export const SCORE_RANGE = { min: -10000, max: 10000 } as const;

/** Per category: which way each slider moves its score, and by how much at most. */
export const SENSITIVITIES: Readonly<Record<Category, Readonly<Record<SliderAxis, number>>>> = {
  unwanted: { qualityVsSize: 0, compatibility: 0, hdrPreference: 0, unwantedStrictness: -5000 },
  hdr_dv: { qualityVsSize: 100, compatibility: -800, hdrPreference: 700, unwantedStrictness: 0 },
  hdr_hdr10plus: { qualityVsSize: 50, compatibility: -100, hdrPreference: 500, unwantedStrictness: 0 },
  hdr_baseline: { qualityVsSize: 50, compatibility: 0, hdrPreference: 400, unwantedStrictness: 0 },
  remux: { qualityVsSize: 1000, compatibility: -100, hdrPreference: 0, unwantedStrictness: 0 },
  release_group_tier_1: { qualityVsSize: 200, compatibility: 0, hdrPreference: 0, unwantedStrictness: 100 },
  release_group_tier_2: { qualityVsSize: 150, compatibility: 0, hdrPreference: 0, unwantedStrictness: 50 },
  release_group_tier_3: { qualityVsSize: 100, compatibility: 0, hdrPreference: 0, unwantedStrictness: 0 },
  audio_lossless: { qualityVsSize: 500, compatibility: -250, hdrPreference: 0, unwantedStrictness: 0 },
  audio_advanced: { qualityVsSize: 200, compatibility: -100, hdrPreference: 0, unwantedStrictness: 0 },
  audio_baseline: { qualityVsSize: -100, compatibility: 200, hdrPreference: 0, unwantedStrictness: 0 },
  streaming_service: { qualityVsSize: -50, compatibility: 25, hdrPreference: 0, unwantedStrictness: 0 },
  movie_version: { qualityVsSize: 100, compatibility: 0, hdrPreference: 0, unwantedStrictness: 0 },
  repack_proper: { qualityVsSize: 0, compatibility: 0, hdrPreference: 0, unwantedStrictness: 0 },
  resolution: { qualityVsSize: 50, compatibility: 0, hdrPreference: 0, unwantedStrictness: 0 },
};

/** Resolution formats matching the ceiling get this bonus; ones above it are rejected. */
export const CEILING_MATCH_BONUS = 100;

export interface Preset {
  id: string;
  title: string;
  description: string;
  /** Base score per category. */
  base: Readonly<Record<Category, number>>;
  /** Slider positions a client may pre-fill for this preset (the request always carries its own). */
  suggestedWeights: GoalWeights;
}

const BALANCED: Record<Category, number> = {
  unwanted: -5000,
  hdr_dv: 300,
  hdr_hdr10plus: 250,
  hdr_baseline: 200,
  remux: 500,
  release_group_tier_1: 1700,
  release_group_tier_2: 1600,
  release_group_tier_3: 1500,
  audio_lossless: 250,
  audio_advanced: 150,
  audio_baseline: 50,
  streaming_service: 50,
  movie_version: 100,
  repack_proper: 5,
  resolution: 0,
};

const preset = (id: string, title: string, description: string, overrides: Partial<Record<Category, number>>, suggestedWeights: GoalWeights): Preset => ({
  id,
  title,
  description,
  base: { ...BALANCED, ...overrides },
  suggestedWeights,
});

export const PRESETS: readonly Preset[] = [
  preset('balanced', 'Balanced', 'TRaSH-like defaults: known groups first, junk rejected, HDR and better audio mildly preferred.', {}, {
    qualityVsSize: 50,
    compatibility: 50,
    hdrPreference: 50,
    unwantedStrictness: 50,
    resolutionCeiling: '1080p',
  }),
  preset(
    'best-quality',
    'Best quality',
    'Remuxes, lossless audio and HDR win; size does not matter.',
    { unwanted: -7500, remux: 1500, hdr_dv: 600, hdr_hdr10plus: 500, hdr_baseline: 400, audio_lossless: 750, audio_advanced: 400, audio_baseline: 0, streaming_service: 0, movie_version: 200, release_group_tier_1: 1800, release_group_tier_2: 1700, release_group_tier_3: 1600 },
    { qualityVsSize: 90, compatibility: 30, hdrPreference: 70, unwantedStrictness: 70, resolutionCeiling: '2160p' },
  ),
  preset(
    'smallest-size',
    'Smallest size',
    'Efficient encodes and web releases; remuxes and lossless audio are avoided.',
    { remux: -2000, audio_lossless: -300, audio_advanced: 50, audio_baseline: 200, streaming_service: 200, hdr_dv: 0, hdr_hdr10plus: 0, hdr_baseline: 0, movie_version: 0 },
    { qualityVsSize: 10, compatibility: 60, hdrPreference: 30, unwantedStrictness: 50, resolutionCeiling: '1080p' },
  ),
  preset(
    '4k-hdr',
    '4K HDR',
    'UHD with Dolby Vision and HDR10+ preferred; pair with a 2160p ceiling.',
    { hdr_dv: 1200, hdr_hdr10plus: 1000, hdr_baseline: 800, remux: 800, audio_lossless: 400, audio_advanced: 250, resolution: 100 },
    { qualityVsSize: 70, compatibility: 30, hdrPreference: 90, unwantedStrictness: 60, resolutionCeiling: '2160p' },
  ),
  preset(
    'compatibility-first',
    'Compatibility first',
    'Plays everywhere: no Dolby-Vision-only releases, baseline audio preferred, no lossless tracks a TV cannot pass through.',
    { hdr_dv: -2000, hdr_hdr10plus: 0, hdr_baseline: 100, remux: 0, audio_lossless: 0, audio_advanced: 50, audio_baseline: 400, streaming_service: 100 },
    { qualityVsSize: 40, compatibility: 90, hdrPreference: 30, unwantedStrictness: 60, resolutionCeiling: '1080p' },
  ),
];

export const PRESET_IDS = PRESETS.map((p) => p.id);

export function presetById(id: string): Preset | null {
  return PRESETS.find((p) => p.id === id) ?? null;
}

export interface AxisContribution {
  axis: Axis;
  delta: number;
}

export type CeilingRelation = 'above' | 'match' | 'below';

export function sliderDelta(sensitivity: number, weight: number): number {
  // `+ 0` turns -0 into 0 so bodies serialize the same.
  return Math.round((sensitivity * (weight - 50)) / 50) + 0;
}

export function clampScore(score: number): number {
  return Math.min(SCORE_RANGE.max, Math.max(SCORE_RANGE.min, score));
}

/**
 * The ceiling's contribution: a resolution-category format above the ceiling is rejected (its
 * score goes to the bottom of the range) and one at the ceiling gets CEILING_MATCH_BONUS; any other
 * format above the ceiling is neutralised to 0 (it cannot match a quality the ladder allows).
 */
export function ceilingDelta(category: Category, relation: CeilingRelation | null, subtotal: number): number {
  if (relation === null) return 0;
  if (category === 'resolution') {
    if (relation === 'above') return SCORE_RANGE.min - subtotal;
    return relation === 'match' ? CEILING_MATCH_BONUS : 0;
  }
  return relation === 'above' ? -subtotal + 0 : 0;
}

/** base + contributions of every axis (zero ones included, in SLIDER_AXES order, then the ceiling). */
export function scoreOf(
  category: Category,
  presetBase: Readonly<Record<Category, number>>,
  weights: GoalWeights,
  relation: CeilingRelation | null,
): { base: number; axisContributions: AxisContribution[]; score: number } {
  const base = presetBase[category];
  const axisContributions: AxisContribution[] = SLIDER_AXES.map((axis) => ({ axis, delta: sliderDelta(SENSITIVITIES[category][axis], weights[axis]) }));
  const subtotal = base + axisContributions.reduce((s, c) => s + c.delta, 0);
  axisContributions.push({ axis: 'resolutionCeiling', delta: ceilingDelta(category, relation, subtotal) });
  const raw = base + axisContributions.reduce((s, c) => s + c.delta, 0);
  return { base, axisContributions, score: clampScore(raw) };
}

export { CATEGORIES };
