/**
 * Field path notation shared by diffs, overrides and lineage.
 *
 * A path is a list of segments joined by `.`: object properties by name, items of keyed arrays by
 * their key (e.g. `conditions.HDR10+.negate`). Names may contain dots, so inside a segment `\` is
 * written `\\` and `.` is written `\.` (`customFormats.all.1\.0 Mono.score`).
 */

export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/\\/g, '\\\\').replace(/\./g, '\\.');
}

export function formatPath(segments: readonly (string | number)[]): string {
  return segments.map(escapeSegment).join('.');
}

/** Appends one (unescaped) segment to an already formatted path. */
export function joinPath(parent: string, segment: string | number): string {
  return parent === '' ? escapeSegment(segment) : `${parent}.${escapeSegment(segment)}`;
}

/** Inverse of formatPath. */
export function parsePath(path: string): string[] {
  if (path === '') return [];
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const ch = path[i];
    if (ch === '\\' && i + 1 < path.length) {
      current += path[++i];
    } else if (ch === '.') {
      segments.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  segments.push(current);
  return segments;
}
