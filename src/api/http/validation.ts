import type { ZodError, ZodIssue } from 'zod';
import { AppError } from '../../errors';

export type RequestPart = 'params' | 'query' | 'body';

/** One precise, client-safe message naming the first offending field. */
export function describeZodError(part: RequestPart, error: ZodError): string {
  const issue = error.issues[0];
  const field = [part, ...issue.path.map(String)].join('.');
  return `Invalid request: ${field} ${issueText(issue)}`;
}

function issueText(issue: ZodIssue): string {
  if (issue.code === 'invalid_type') {
    if (issue.received === 'undefined') return 'is required';
    return `must be ${article(issue.expected)}, got ${issue.received}`;
  }
  if (issue.code === 'unrecognized_keys') return `has unknown field(s): ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_enum_value') return `must be one of: ${issue.options.map(String).join(', ')}`;
  if (issue.code === 'invalid_literal') return `must be ${JSON.stringify(issue.expected)}`;
  if (issue.code === 'too_small') {
    if (issue.type === 'string') return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
    if (issue.type === 'array') return `must have at least ${issue.minimum} item(s)`;
    return `must be at least ${issue.minimum}`;
  }
  if (issue.code === 'too_big') {
    if (issue.type === 'string') return `must be at most ${issue.maximum} characters`;
    if (issue.type === 'array') return `must have at most ${issue.maximum} item(s)`;
    return `must be at most ${issue.maximum}`;
  }
  const message = issue.message.replace(/^Invalid /, 'is an invalid ');
  return message.charAt(0).toLowerCase() === message.charAt(0) ? message : message.charAt(0).toLowerCase() + message.slice(1);
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

export function zodToAppError(part: RequestPart, error: ZodError): AppError {
  return new AppError('validation', describeZodError(part, error));
}
