/**
 * Turning zod issues into precise public messages that name the offending field.
 */
import type { ZodIssue } from 'zod';
import { formatPath } from '../diff/path';

function issuePath(path: (string | number)[]): string {
  return path.length === 0 ? '(root)' : formatPath(path);
}

function describe(issue: ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const prefix = issue.path.length ? `${issuePath(issue.path)}.` : '';
    return issue.keys.map((k) => `${prefix}${k}: unsupported field`).join('; ');
  }
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return `${issuePath(issue.path)}: required field is missing`;
  return `${issuePath(issue.path)}: ${issue.message}`;
}

/** One line naming each failing field, e.g. "conditions.0.negate: Expected boolean, received string". */
export function formatZodIssues(issues: readonly ZodIssue[], limit = 5): string {
  const parts = issues.slice(0, limit).map(describe);
  if (issues.length > limit) parts.push(`and ${issues.length - limit} more`);
  return parts.join('; ');
}

/** The first failing field only (fail-fast messages). */
export function firstZodIssue(issues: readonly ZodIssue[]): string {
  return issues.length === 0 ? '' : describe(issues[0]).split('; ')[0];
}
