/**
 * The quality ladder under a resolution ceiling. Rows (qualities and groups, PCD order: most
 * preferred first) whose resolution is above the ceiling are disabled; the cutoff (upgradeUntil)
 * moves to the most preferred enabled row when its row was disabled. A row the target app cannot
 * map (no member has a quality_api_mapping for it) is left unchanged and reported `mapped: false`.
 * When the ceiling would leave no enabled row, the mapped rows at the ceiling's resolution are
 * enabled so the profile still grabs something.
 */
import type { ArrType } from '../arr-types';
import type { QualityProfileItem } from '../pcd';
import type { ResolutionCeiling } from './policy';

export interface LadderItem {
  name: string;
  type: 'quality' | 'group';
  enabled: boolean;
  upgradeUntil: boolean;
  /** Position in the profile, 0 = most preferred. */
  position: number;
  /** Vertical resolution (the highest of a group's members); null when the name carries none. */
  resolution: number | null;
  /** False when the target app has none of the row's qualities: the row is left unchanged. */
  mapped: boolean;
}

export interface QualityLadder {
  ceiling: ResolutionCeiling;
  /** Name of the cutoff row after the ceiling, null when no row is enabled. */
  cutoff: string | null;
  items: LadderItem[];
  reshapesSiblingArrs: boolean;
  sharedLadderNote: string | null;
}

export function ceilingPixels(ceiling: ResolutionCeiling): number {
  return Number(ceiling.slice(0, -1));
}

/** Vertical resolution in a quality name (Bluray-1080p, WEBDL-2160p), null for SDTV, DVD, Raw-HD... */
export function qualityResolution(name: string): number | null {
  const m = /(\d{3,4})p\b/.exec(name);
  return m ? Number(m[1]) : null;
}

/** An instance of another app family that syncs the profile. */
export interface SiblingInstance {
  name: string;
  arrType: ArrType;
}

function syncedBy(instances: readonly SiblingInstance[]): string {
  if (instances.length === 0) return '';
  const sorted = [...instances].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return ` Synced now by ${sorted.map((i) => `"${i.name}" (${i.arrType})`).join(', ')}.`;
}

const LABEL: Record<ArrType, string> = { movie_app: 'movie_app (Radarr)', series_app: 'series_app (Sonarr)', music_app: 'music_app (Lidarr)' };

/**
 * @param qualityNames canonical quality name -> the app's name (quality_api_mappings of the app)
 * @param siblingArrTypes other app families the profile is compatible with (its rows are shared)
 * @param siblingInstances instances of those families that sync the profile now (named in the note)
 */
export function applyCeiling(
  profileName: string,
  qualities: readonly QualityProfileItem[],
  qualityNames: Readonly<Record<string, string>>,
  ceiling: ResolutionCeiling,
  arrType: ArrType,
  siblingArrTypes: readonly ArrType[],
  siblingInstances: readonly SiblingInstance[] = [],
): { ladder: QualityLadder; qualities: QualityProfileItem[] } {
  const limit = ceilingPixels(ceiling);
  const items: LadderItem[] = qualities.map((item, position) => {
    const members = item.type === 'quality' ? [item.name] : item.members;
    const resolutions = members.map(qualityResolution).filter((r): r is number => r !== null);
    const resolution = resolutions.length > 0 ? Math.max(...resolutions) : null;
    const mapped = members.some((m) => qualityNames[m] !== undefined);
    const enabled = mapped && resolution !== null && resolution > limit ? false : item.enabled;
    return { name: item.name, type: item.type, enabled, upgradeUntil: item.upgradeUntil, position, resolution, mapped };
  });
  const usable = (i: LadderItem) => i.enabled && i.mapped;
  if (!items.some(usable) && qualities.some((q) => q.enabled)) {
    for (const i of items) if (i.mapped && i.resolution === limit) i.enabled = true;
  }
  const cutoffRow = items.find((i) => i.upgradeUntil);
  if (!cutoffRow || !cutoffRow.enabled) {
    for (const i of items) i.upgradeUntil = false;
    const best = items.find(usable);
    if (best) best.upgradeUntil = true;
  }
  const cutoff = items.find((i) => i.upgradeUntil && i.enabled)?.name ?? null;
  const next = qualities.map((q, i) => ({ ...q, enabled: items[i].enabled, upgradeUntil: items[i].upgradeUntil }));
  const reshaped = next.some((q, i) => q.enabled !== qualities[i].enabled || q.upgradeUntil !== qualities[i].upgradeUntil);
  const siblings = siblingArrTypes.filter((a) => a !== arrType);
  const sharedLadderNote =
    siblings.length > 0
      ? `The quality rows of "${profileName}" are shared by ${[arrType, ...siblings].map((a) => LABEL[a]).join(' and ')}: ` +
        (reshaped ? `this ceiling reshapes them for every app that syncs the profile, not only ${LABEL[arrType]}.` : 'this ceiling leaves them as they are.') +
        syncedBy(siblingInstances.filter((i) => siblings.includes(i.arrType)))
      : null;
  return { ladder: { ceiling, cutoff, items, reshapesSiblingArrs: reshaped && siblings.length > 0, sharedLadderNote }, qualities: next };
}
