/** Revision: PROPER, REPACK/RERIP (with an optional number), anime "v2" versions and the scene's REAL marker. */

export interface ParsedRevision {
  version: number;
  real: number;
  isRepack: boolean;
  isProper: boolean;
}

const PROPER = /(?<![a-z0-9])PROPER(\d)?(?![a-z0-9])/i;
const REPACK = /(?<![a-z0-9])(?:REPACK|RERIP)(\d)?(?![a-z0-9])/i;
/**
 * An anime release's version (Sonarr reads it; Radarr does not): after an episode number ("01v2", "S01E01 v2"), in
 * brackets ("[v3]") or after a resolution as Sonarr names its qualities ("[WEBDL-1080p v2]"). A "v3" after a word
 * ("Title v3 [BD720p]") is part of the title.
 */
const ANIME_VERSION = /(?:(?<=\d[-_. ]?)|(?<=\d[pi][-_. ])|(?<=\[))v(\d)(?![a-z0-9])/i;
/** REAL is only a marker in capitals ("REAL.PROPER"), never the word "Real" in a title. */
const REAL = /(?<![A-Za-z0-9])REAL(?![A-Za-z0-9])/g;

/** `tail`: the name after the title. */
export function parseRevision(name: string, tail: string, readAnimeVersion: boolean): ParsedRevision {
  let version = 1;
  let isProper = false;
  let isRepack = false;
  const proper = PROPER.exec(name);
  if (proper) {
    isProper = true;
    version = proper[1] ? Number(proper[1]) + 1 : 2;
  }
  const repack = REPACK.exec(name);
  if (repack) {
    isRepack = true;
    version = Math.max(version, repack[1] ? Number(repack[1]) + 1 : 2);
  }
  if (readAnimeVersion && !proper && !repack) {
    const anime = ANIME_VERSION.exec(name);
    if (anime) version = Math.max(1, Number(anime[1]));
  }
  // in an all-capitals name "REAL" may be a title word, so only the part after the title counts there
  const real = (name === name.toUpperCase() ? tail : name).match(REAL)?.length ?? 0;
  return { version, real, isRepack, isProper };
}
