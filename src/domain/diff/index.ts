/**
 * Generic field diff engine (pure, no I/O). See diff.ts for the semantics and path.ts for the
 * path notation shared with PCD overrides and lineage.
 */
export { diff, leaves, deepEqual, isPlainObject, arrayKeyOf } from './diff';
export type { FieldChange, FieldChangeType, DiffOptions, ArrayRule, Leaf } from './diff';
export { formatPath, parsePath, joinPath, escapeSegment } from './path';
