/**
 * A release's custom-format score in a quality profile, as the app would compute it: the sum of
 * the profile's scores (the app's own score overrides an `all` score) of the formats that match.
 * Formats a title cannot decide are listed with their scores, since they may change the total.
 */
import type { ArrType } from '../arr-types';
import type { QualityProfileData } from '../pcd';
import { scoresFor } from '../sync/source';

export interface ProfileScore {
  profileName: string;
  arrType: ArrType;
  score: number;
  minimumCustomFormatScore: number;
  upgradeUntilScore: number;
  /** score >= minimumCustomFormatScore: the app would accept the release. */
  meetsMinimum: boolean;
  /** score >= upgradeUntilScore: the app would stop upgrading at this release. */
  reachesUpgradeUntil: boolean;
  /** Scored formats whose match a title cannot decide. */
  undecided: { customFormatId: number; name: string; score: number }[];
}

export function scoreRelease(
  profile: QualityProfileData,
  arrType: ArrType,
  formats: readonly { id: number; name: string; result: 'match' | 'noMatch' | 'undecided' | 'notApplicable' }[],
): ProfileScore {
  const scores = scoresFor(profile, arrType);
  let score = 0;
  const undecided: ProfileScore['undecided'] = [];
  for (const f of formats) {
    const s = scores.get(f.name);
    if (s === undefined) continue;
    if (f.result === 'match') score += s;
    else if (f.result === 'undecided' && s !== 0) undecided.push({ customFormatId: f.id, name: f.name, score: s });
  }
  return {
    profileName: profile.name,
    arrType,
    score,
    minimumCustomFormatScore: profile.minimumCustomFormatScore,
    upgradeUntilScore: profile.upgradeUntilScore,
    meetsMinimum: score >= profile.minimumCustomFormatScore,
    reachesUpgradeUntil: score >= profile.upgradeUntilScore,
    undecided,
  };
}
