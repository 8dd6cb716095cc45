/**
 * Assembling HealthInput.desired from what the sync domain already computes: the selected
 * profiles of a SyncSource (readSyncSource) with their custom formats for the app, and their
 * compatibility (the PCD graph's profileCompatibility, basis enabled-qualities).
 */
import type { ArrType } from '../arr-types';
import { scoresFor, type SyncSource } from '../sync/source';
import { compareText } from './text';
import type { DesiredProfile } from './types';

export function desiredProfilesFrom(source: SyncSource, compatibility: { name: string; compatibleArrTypes: ArrType[] }[]): DesiredProfile[] {
  const compatible = new Map(compatibility.map((c) => [c.name, c.compatibleArrTypes.includes(source.arrType)] as const));
  return source.qualityProfiles.map((profile) => ({
    name: profile.name,
    compatible: compatible.get(profile.name) ?? false,
    customFormats: [...scoresFor(profile, source.arrType).keys()].sort(compareText),
  }));
}
