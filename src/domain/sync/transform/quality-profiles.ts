/**
 * PCD quality profile -> the app's quality profile payload.
 *
 * - Qualities go through quality_api_mappings to the app's names, then to the app's quality
 *   objects. PCD lists the most preferred item first; the apps list items lowest first, so the PCD
 *   list is reversed, and every app quality the profile does not list is added, disallowed, below
 *   it (in the app's own order). Each app quality appears exactly once.
 * - A group keeps the members the app has; with two or more it is a group (ids from 1000, in item
 *   order), with one it becomes that plain quality, with none it is left out.
 * - Cutoff: the item marked upgradeUntil; when it is missing or not allowed, the most preferred
 *   allowed item.
 * - formatItems are not part of the payload: they need the app's custom format ids, so the write
 *   plan carries the scores by custom format name (`formatScores`) and the executor completes the
 *   list with every custom format present on the app (0 for the ones not scored).
 * - minFormatScore is lowered to the best score the formats can reach (the app refuses an
 *   unreachable one); minUpgradeFormatScore is upgradeScoreIncrement, at least 1 (Radarr, Sonarr);
 *   the profile language is set on Radarr only.
 */
import type { QualityProfileData } from '../../pcd';
import type { QualityProfileQualityItemPayload } from '../../app-resources';
import { languageByName, qualityByName } from '../catalog';
import { appName } from '../namespace';
import { scoresFor } from '../source';
import type { AppQuality, NamedId } from '../types';
import { appLabel, report, type TransformContext } from './context';

export type QualityItemPayload = QualityProfileQualityItemPayload<AppQuality>;

/** A quality profile payload without formatItems (they are completed at write time). */
export interface QualityProfileBody {
  name: string;
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityItemPayload[];
  minFormatScore: number;
  cutoffFormatScore: number;
  /** Radarr and Sonarr. */
  minUpgradeFormatScore?: number;
  /** Radarr (always set there; null only to accept the apps' own payload type). */
  language?: NamedId | null;
}

export interface DesiredQualityProfile {
  name: string;
  displayName: string;
  body: QualityProfileBody;
  /** Scores by the custom format's name on the app; formats not listed score 0. */
  formatScores: Record<string, number>;
}

/** First group id, as the apps' own default profiles and UI use. */
export const FIRST_GROUP_ID = 1000;

const HAS_MIN_UPGRADE = { movie_app: true, series_app: true, music_app: false } as const;

interface Placed {
  /** Name of the PCD item. */
  pcdName: string;
  enabled: boolean;
  upgradeUntil: boolean;
  group: { name: string; qualities: AppQuality[] } | null;
  quality: AppQuality | null;
}

function qualityItem(quality: AppQuality, allowed: boolean): QualityItemPayload {
  return { quality: { ...quality }, items: [], allowed };
}

/**
 * @param formatNames PCD custom format name -> name on the app, for the formats that were transformed.
 */
export function transformQualityProfile(
  profile: QualityProfileData,
  ctx: TransformContext,
  qualityNames: Record<string, string>,
  formatNames: ReadonlyMap<string, string>,
): DesiredQualityProfile | null {
  const warn = (message: string) => report(ctx, 'warning', 'qualityProfiles', 'qualityProfile', profile.name, message);
  const app = appLabel(ctx.arrType);
  const toApp = (canonical: string): AppQuality | undefined => {
    const apiName = qualityNames[canonical];
    return apiName === undefined ? undefined : qualityByName(ctx.catalog, apiName);
  };

  // PCD order (most preferred first), mapped to the app's qualities.
  const used = new Set<number>();
  const placed: Placed[] = [];
  for (const item of profile.qualities) {
    const members = item.type === 'quality' ? [item.name] : item.members;
    const qualities: AppQuality[] = [];
    for (const member of members) {
      const quality = toApp(member);
      if (!quality) {
        if (item.enabled) warn(`quality "${member}" left out: ${app} has no such quality`);
        continue;
      }
      if (used.has(quality.id)) {
        warn(`quality "${member}" left out: it is already listed`);
        continue;
      }
      used.add(quality.id);
      qualities.push(quality);
    }
    if (qualities.length === 0) continue;
    if (item.type === 'group' && qualities.length >= 2) {
      placed.push({ pcdName: item.name, enabled: item.enabled, upgradeUntil: item.upgradeUntil, group: { name: item.name, qualities }, quality: null });
    } else {
      if (item.type === 'group') warn(`group "${item.name}" has one quality on ${app}; it is synced as the quality "${qualities[0].name}"`);
      placed.push({ pcdName: item.name, enabled: item.enabled, upgradeUntil: item.upgradeUntil, group: null, quality: qualities[0] });
    }
  }

  if (!placed.some((p) => p.enabled)) {
    report(ctx, 'error', 'qualityProfiles', 'qualityProfile', profile.name, `left out: none of its enabled qualities exists on ${app}`);
    return null;
  }

  // Lowest first: unlisted app qualities (disallowed), then the PCD list reversed.
  const items: QualityItemPayload[] = ctx.catalog.qualities.filter((q) => !used.has(q.id)).map((q) => qualityItem(q, false));
  const idOf = new Map<Placed, number>();
  let nextGroupId = FIRST_GROUP_ID;
  for (const p of [...placed].reverse()) {
    if (p.group) {
      const id = nextGroupId++;
      idOf.set(p, id);
      items.push({
        id,
        name: p.group.name,
        items: [...p.group.qualities].reverse().map((q) => qualityItem(q, p.enabled)),
        allowed: p.enabled,
      });
    } else {
      idOf.set(p, p.quality!.id);
      items.push(qualityItem(p.quality!, p.enabled));
    }
  }

  let cutoffItem = placed.find((p) => p.upgradeUntil);
  if (cutoffItem && !cutoffItem.enabled) {
    warn(`upgrade-until item "${cutoffItem.pcdName}" is not enabled; the most preferred enabled item is the cutoff`);
    cutoffItem = undefined;
  } else if (!cutoffItem && profile.qualities.some((q) => q.upgradeUntil)) {
    warn(`upgrade-until item is not available on ${app}; the most preferred enabled item is the cutoff`);
  }
  cutoffItem ??= placed.find((p) => p.enabled)!;

  // Scores of the formats that were transformed.
  const formatScores: Record<string, number> = {};
  for (const [format, score] of [...scoresFor(profile, ctx.arrType)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const name = formatNames.get(format);
    if (name === undefined) {
      if (score !== 0) warn(`score of custom format "${format}" left out: the format is not synced to ${app}`);
      continue;
    }
    formatScores[name] = score;
  }

  // The apps refuse a minimum no combination of scores reaches.
  const reachable = Object.values(formatScores).reduce((sum, s) => (s > 0 ? sum + s : sum), 0);
  let minFormatScore = profile.minimumCustomFormatScore;
  if (minFormatScore > reachable) {
    warn(`minimum custom format score ${minFormatScore} cannot be reached on ${app}; ${reachable} is used`);
    minFormatScore = reachable;
  }

  const name = appName(profile.name, ctx.namespace);
  const body: QualityProfileBody = {
    name,
    upgradeAllowed: profile.upgradesAllowed,
    cutoff: idOf.get(cutoffItem)!,
    items,
    minFormatScore,
    cutoffFormatScore: profile.upgradeUntilScore,
  };
  if (HAS_MIN_UPGRADE[ctx.arrType]) body.minUpgradeFormatScore = Math.max(1, profile.upgradeScoreIncrement);
  if (ctx.arrType === 'movie_app') body.language = profileLanguage(profile, ctx, warn);
  else if (profile.languages.length > 0) warn(`profile languages are not synced: ${app} profiles have no language`);
  return { name, displayName: profile.name, body, formatScores };
}

/** Radarr's single profile language: the PCD "simple" language, else Any. */
function profileLanguage(profile: QualityProfileData, ctx: TransformContext, warn: (m: string) => void): NamedId {
  const any = languageByName(ctx.catalog, 'Any') ?? { id: -1, name: 'Any' };
  const simple = profile.languages.filter((l) => l.type === 'simple');
  for (const l of profile.languages) {
    if (l.type !== 'simple') warn(`language "${l.name}" (${l.type}) is not synced: Radarr profiles take one language`);
  }
  if (simple.length === 0) return { ...any };
  if (simple.length > 1) warn(`several profile languages; "${simple[0].name}" is used`);
  const language = languageByName(ctx.catalog, simple[0].name);
  if (!language) {
    warn(`Radarr has no language "${simple[0].name}"; Any is used`);
    return { ...any };
  }
  return { id: language.id, name: language.name };
}
