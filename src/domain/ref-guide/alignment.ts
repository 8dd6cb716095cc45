/**
 * Reference alignment of an instance's desired configuration with a reference guide (health's
 * ref_alignment evidence).
 *
 * - Custom formats: every format the selected profiles score for the app that has a guide
 *   counterpart (same name) is one entry; it matches when the specifications the sync writes (the
 *   PCD conditions transformed for the app) equal the guide's as a multiset of (implementation,
 *   negate, required, fields). Formats without a counterpart are not counted.
 * - Quality profiles: a selected profile with a guide profile of the same name adds one entry per
 *   custom format the guide profile scores; it matches when the profile's score for the app equals
 *   the guide's score in its score set (an unscored format counts as 0).
 * Overall = all entries; a profile's own = its formats' entries plus its score entries.
 */
import type { ArrType } from '../arr-types';
import type { CustomFormatData, QualityProfileData } from '../pcd';
import { scoresFor } from '../sync/source';
import { transformCustomFormat } from '../sync/transform/custom-formats';
import { APP_LANGUAGES } from '../app-resources/languages';
import { guideSpecifications } from './to-pcd';
import { stableJson } from './trash-guides';

export interface GuideFormatRef {
  refId: string;
  name: string;
  entity: Record<string, unknown>;
}

export interface GuideProfileRef {
  refId: string;
  name: string;
  scoreSet: string;
  /** Custom format name -> score in the profile's score set. */
  scores: Record<string, number>;
}

export interface AlignmentCounts {
  matched: number;
  total: number;
  /** Human-readable differing entries, sorted. */
  differences: string[];
}

export interface ReferenceAlignment extends AlignmentCounts {
  perProfile: Record<string, AlignmentCounts>;
  /** Desired custom formats the guide has no counterpart for (not counted). */
  notInGuide: string[];
}

const normalizeValue = (v: unknown): unknown => {
  if (typeof v === 'number') return Math.round(v * 1e6) / 1e6;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1e6) / 1e6;
  return v;
};

function specKey(spec: { implementation: string; negate: boolean; required: boolean; fields: Record<string, unknown> }): string {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec.fields)) fields[k] = normalizeValue(v);
  if (spec.implementation === 'LanguageSpecification') fields.exceptLanguage = fields.exceptLanguage === true;
  return stableJson({ implementation: spec.implementation, negate: spec.negate, required: spec.required, fields });
}

/** The specification keys the sync would write for a PCD format on the app (sorted). */
export function desiredSpecKeys(format: CustomFormatData, arrType: ArrType, patterns: Record<string, string>): string[] {
  const ctx = { arrType, catalog: { arrType, qualities: [], languages: [...APP_LANGUAGES[arrType]], qualityDefinitionLimits: null }, namespace: null, issues: [] };
  const desired = transformCustomFormat(format, ctx, patterns);
  if (!desired) return [];
  return desired.payload.specifications
    .map((s) => specKey({ implementation: s.implementation, negate: s.negate === true, required: s.required === true, fields: Object.fromEntries(s.fields.map((f) => [f.name, f.value])) }))
    .sort();
}

export function guideSpecKeys(entity: Record<string, unknown>): string[] {
  return guideSpecifications(entity).map(specKey).sort();
}

export function alignWithGuide(input: {
  arrType: ArrType;
  formats: CustomFormatData[];
  patterns: Record<string, string>;
  profiles: QualityProfileData[];
  guideFormats: GuideFormatRef[];
  guideProfiles: GuideProfileRef[];
}): ReferenceAlignment {
  const guideFormats = new Map(input.guideFormats.map((f) => [f.name, f]));
  const guideProfiles = new Map(input.guideProfiles.map((p) => [p.name, p]));
  const formatMatch = new Map<string, boolean>();
  const notInGuide: string[] = [];
  for (const format of input.formats) {
    const guide = guideFormats.get(format.name);
    if (!guide) {
      notInGuide.push(format.name);
      continue;
    }
    formatMatch.set(format.name, stableJson(desiredSpecKeys(format, input.arrType, input.patterns)) === stableJson(guideSpecKeys(guide.entity)));
  }
  const formatDifference = (name: string) => `Custom format "${name}": conditions differ from the guide's`;

  const overall: AlignmentCounts = { matched: 0, total: 0, differences: [] };
  for (const [name, matched] of formatMatch) {
    overall.total++;
    if (matched) overall.matched++;
    else overall.differences.push(formatDifference(name));
  }

  const perProfile: Record<string, AlignmentCounts> = {};
  for (const profile of input.profiles) {
    const own: AlignmentCounts = { matched: 0, total: 0, differences: [] };
    const scores = scoresFor(profile, input.arrType);
    for (const name of scores.keys()) {
      if (!formatMatch.has(name)) continue;
      own.total++;
      if (formatMatch.get(name)) own.matched++;
      else own.differences.push(formatDifference(name));
    }
    const guide = guideProfiles.get(profile.name);
    if (guide) {
      for (const [formatName, expected] of Object.entries(guide.scores)) {
        const actual = scores.get(formatName) ?? 0;
        for (const counts of [own, overall]) {
          counts.total++;
          if (actual === expected) counts.matched++;
          else counts.differences.push(`Quality profile "${profile.name}": "${formatName}" scores ${actual}, the guide's ${guide.scoreSet} score set gives ${expected}`);
        }
      }
    }
    if (own.total > 0) perProfile[profile.name] = { ...own, differences: own.differences.sort() };
  }
  return { ...overall, differences: overall.differences.sort(), perProfile, notInGuide: notInGuide.sort() };
}
