import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// API schemas import `z` from here so that `.openapi()` metadata is available on every schema.
extendZodWithOpenApi(z);

export { z };

/** Integer ids in paths and queries arrive as strings. */
export const idParam = () =>
  z
    .string()
    .regex(/^[1-9]\d{0,14}$/, "must be a positive integer")
    .transform(Number)
    .openapi({ type: 'integer' });

export const booleanQuery = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1')
  .openapi({ type: 'boolean' });

export const integerQuery = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`)
    .openapi({ type: 'integer', minimum: min, maximum: max });

export const ErrorBody = z.object({ error: z.string() }).openapi('Error');
