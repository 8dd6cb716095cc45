import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// API schemas import `z` from here so that `.openapi()` metadata is available on every schema.
extendZodWithOpenApi(z);

export { z };

/**
 * Request primitives. Every string, number and array a request carries is bounded: build request
 * schemas from these (not bare `z.string()` / `z.number()`), so the bound is both enforced and
 * documented in the OpenAPI document.
 */

/** Largest id or count arrgo accepts in a request: ids are 32-bit integer columns. */
export const INT32_MAX = 2_147_483_647;

// C0 controls and DEL: NUL cannot be stored at all (PostgreSQL text), the others have no place in a name.
const SINGLE_LINE = /^[^\u0000-\u001f\u007f]*$/;
// Multi-line text (descriptions, free text) may carry tab, line feed and carriage return.
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

export interface TextBounds {
  /** Default 0; 1 refuses the empty string ("must not be empty"). */
  min?: number;
  max: number;
  /** Trim surrounding whitespace before checking the bounds (default true). */
  trim?: boolean;
  /** Allow tab, line feed and carriage return (default false). */
  multiline?: boolean;
}

/** The one request string type: bounded length, no control characters. */
export function text({ min = 0, max, trim = true, multiline = false }: TextBounds) {
  let s = z.string();
  if (trim) s = s.trim();
  if (min > 0) s = s.min(min);
  return s
    .max(max)
    .regex(multiline ? MULTI_LINE : SINGLE_LINE, multiline ? 'must not contain control characters other than tab and line breaks' : 'must not contain control characters');
}

/** A request integer between min and max (both documented). */
export const int = (min: number, max: number) => z.number().int().min(min).max(max);

/** An id in a request body: 1 to 2^31-1. */
export const idValue = () => int(1, INT32_MAX);

/** Integer ids in paths and queries arrive as strings. */
export const idParam = () =>
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'must be a positive integer')
    .transform(Number)
    .refine((n) => n <= INT32_MAX, `must be at most ${INT32_MAX}`)
    .openapi({ type: 'integer', minimum: 1, maximum: INT32_MAX });

export const booleanQuery = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1')
  .openapi({ type: 'boolean' });

export const integerQuery = (min: number, max: number) =>
  z
    .string()
    .max(12, `must be between ${min} and ${max}`)
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`)
    .openapi({ type: 'integer', minimum: min, maximum: max });

/**
 * A request enum that also takes other spellings of its values (alias -> value). The handler gets
 * the canonical value; anything else is refused with every accepted form listed ("must be one of:
 * movie_app (or radarr), ..."). The OpenAPI document lists the canonical values and names the
 * aliases in the description.
 */
export function aliasedEnum<T extends string>(values: readonly [T, ...T[]], aliases: Readonly<Record<string, T>>, description?: string) {
  const aliasesOf = (value: T) => Object.keys(aliases).filter((alias) => aliases[alias] === value);
  const accepted = values.map((value) => (aliasesOf(value).length ? `${value} (or ${aliasesOf(value).join(' or ')})` : value)).join(', ');
  const aliasNote = Object.keys(aliases).length
    ? `Requests may also spell ${Object.entries(aliases).map(([alias, value]) => `${value} as ${alias}`).join(', ')}; answers use the canonical value.`
    : undefined;
  const known = new Set<string>(values);
  return z
    .string()
    .transform((value, ctx): T => {
      if (known.has(value)) return value as T;
      if (Object.hasOwn(aliases, value)) return aliases[value];
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be one of: ${accepted}` });
      return z.NEVER;
    })
    .openapi({ type: 'string', enum: [...values], description: [description, aliasNote].filter(Boolean).join(' ') || undefined });
}

export const ErrorBody = z
  .object({
    error: z.string(),
    code: z.string().optional().openapi({ description: 'A machine-readable reason, where the route documents one' }),
    field: z.string().optional().openapi({ description: 'A 400 about one field of the payload: its path in the request (e.g. body.data.conditions.0.name), for showing the refusal next to that field' }),
  })
  .openapi('Error');
