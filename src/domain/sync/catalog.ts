/**
 * The app catalog a transform needs, derived from live state: every quality (the quality
 * definitions, ordered by weight: lowest first, the order profile items use), the languages and the
 * quality-definition size limits.
 */
import type { ArrType } from '../arr-types';
import { DEFAULT_SIZE_LIMITS } from './enums';
import type { AppCatalog, AppQuality, LiveState } from './types';

export function catalogFromLive(arrType: ArrType, live: LiveState): AppCatalog {
  const definitions = [...(live.qualityDefinitions ?? [])].map((d, i) => ({ d, i })).sort((a, b) => a.d.weight - b.d.weight || a.i - b.i);
  const seen = new Set<number>();
  const qualities: AppQuality[] = [];
  for (const { d } of definitions) {
    if (seen.has(d.quality.id)) continue;
    seen.add(d.quality.id);
    qualities.push({ ...d.quality });
  }
  const limits = live.qualityDefinitionLimits ?? DEFAULT_SIZE_LIMITS[arrType];
  return {
    arrType,
    qualities,
    languages: (live.languages ?? []).map((l) => ({ id: l.id, name: l.name })),
    qualityDefinitionLimits: arrType === 'music_app' ? null : limits,
  };
}

/** A quality of the catalog by the app's name (exact, then case-insensitive). */
export function qualityByName(catalog: AppCatalog, name: string): AppQuality | undefined {
  return catalog.qualities.find((q) => q.name === name) ?? catalog.qualities.find((q) => q.name.toLowerCase() === name.toLowerCase());
}

/** A language of the catalog by name (exact, then case-insensitive). */
export function languageByName(catalog: AppCatalog, name: string): { id: number; name: string } | undefined {
  return catalog.languages.find((l) => l.name === name) ?? catalog.languages.find((l) => l.name.toLowerCase() === name.toLowerCase());
}
