import { entityNames, readEntity, replayPcd, type CustomFormatData, type QualityProfileData, type ReplayedPcd } from '../../../src/domain/pcd';
import { qualityNamesOf } from '../../../src/domain/sync/source';
import type { ArrType } from '../../../src/domain/arr-types';
import { trashRepository } from '../pcd/helpers';

let trash: ReplayedPcd | null = null;
export function trashReplay(): ReplayedPcd {
  if (!trash) {
    const repo = trashRepository();
    trash = replayPcd({ base: repo.base, tweaks: repo.tweaks });
  }
  return trash;
}

export function formatsOf(db: ReplayedPcd['resolved']): CustomFormatData[] {
  return entityNames(db, 'custom_format').map((n) => readEntity(db, 'custom_format', n)!.data as CustomFormatData);
}

export function patternsOf(db: ReplayedPcd['resolved']): Record<string, string> {
  const rows = db.prepare('SELECT name, pattern FROM regular_expressions').all() as { name: string; pattern: string }[];
  return Object.fromEntries(rows.map((r) => [r.name, r.pattern]));
}

export function profileOf(db: ReplayedPcd['resolved'], name: string): QualityProfileData {
  return readEntity(db, 'quality_profile', name)!.data as QualityProfileData;
}

export function namesFor(db: ReplayedPcd['resolved'], arrType: ArrType): Record<string, string> {
  return qualityNamesOf(db, arrType);
}
