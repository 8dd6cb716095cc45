/**
 * Small deterministic text helpers shared by the criteria: bounded name lists, code-unit
 * ordering, integer rounding and the suggestion constructor.
 */
import type { SyncChange, SyncIssue, SyncSection } from '../sync/types';
import { TEMPLATE_VERSION, type HealthTone, type Suggestion } from './types';

/** At most this many names are listed in one detail block; the rest is counted. */
export const MAX_LISTED = 10;

/** Code-unit order (locale independent, so the same input sorts the same everywhere). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** round(numerator / denominator) for non-negative integers, halves rounded up, in exact integer arithmetic. */
export function roundRatio(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "3 of 10 managed entities match": the noun agrees with the total, the verb with the part. */
export function partOf(part: number, total: number, one: string, many: string, verbOne: string, verbMany: string): string {
  return `${part} of ${total} ${total === 1 ? one : many} ${part === 1 ? verbOne : verbMany}`;
}

/** The first MAX_LISTED lines, then "...and N more". */
export function bounded(lines: string[]): string[] {
  if (lines.length <= MAX_LISTED) return lines;
  return [...lines.slice(0, MAX_LISTED), `...and ${lines.length - MAX_LISTED} more`];
}

export function suggestion(headline: string, detail: string[], tone: HealthTone): Suggestion {
  return { headline, detail, tone, templateVersion: TEMPLATE_VERSION };
}

const SECTION_ORDER: Record<SyncSection, number> = { qualityProfiles: 0, delayProfiles: 1, mediaManagement: 2, metadataProfiles: 3 };

export function compareChanges(a: SyncChange, b: SyncChange): number {
  return (
    (SECTION_ORDER[a.section ?? 'qualityProfiles'] - SECTION_ORDER[b.section ?? 'qualityProfiles']) ||
    compareText(a.entityType, b.entityType) ||
    compareText(a.name, b.name)
  );
}

export function compareIssues(a: SyncIssue, b: SyncIssue): number {
  return (
    (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
    SECTION_ORDER[a.section] - SECTION_ORDER[b.section] ||
    compareText(a.entityType, b.entityType) ||
    compareText(a.name, b.name) ||
    compareText(a.message, b.message)
  );
}

export function changeLine(change: SyncChange): string {
  return `${change.entityType} "${change.name}"`;
}

export function entityKey(entityType: string, name: string): string {
  return `${entityType}\u0000${name}`;
}
