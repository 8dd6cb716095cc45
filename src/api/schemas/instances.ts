import { APP_FAILURE_CODES } from '../../domain/failure-evidence';
import { ArrTypeSchema } from './common';
import { text, z } from '../http/zod';

const name = text({ min: 1, max: 100 });
const baseUrl = text({ min: 1, max: 500 })
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http:// or https:// URL')
  .refine((v) => !hasUserinfo(v), 'must not contain a user name or password (user:pass@host): the app authenticates with its API key')
  .openapi({ example: 'http://radarr:7878', description: 'http:// or https:// URL of the app, without credentials' });
const apiKey = text({ min: 1, max: 200 }).openapi({ description: 'The app API key (Settings > General). Write-only: never returned.', writeOnly: true });
const tags = z.array(text({ min: 1, max: 50 })).max(50);

export const InstanceCreateSchema = z
  .object({ name, arrType: ArrTypeSchema, baseUrl, apiKey, enabled: z.boolean().optional(), tags: tags.optional() })
  .strict()
  .openapi('InstanceCreate');

export const InstancePatchSchema = z
  .object({
    name: name.optional(),
    arrType: ArrTypeSchema.optional(),
    baseUrl: baseUrl.optional(),
    apiKey: apiKey.optional(),
    enabled: z.boolean().optional(),
    tags: tags.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'must name at least one field to change')
  .openapi('InstancePatch');

export const InstanceSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    arrType: ArrTypeSchema,
    baseUrl: z.string(),
    enabled: z.boolean(),
    tags: z.array(z.string()),
    apiKeySet: z.boolean().openapi({ description: 'An API key is stored (the key itself is never returned)' }),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi('Instance');

export const InstanceTestResultSchema = z
  .object({
    reachable: z.boolean(),
    appName: z.string().optional(),
    version: z.string().optional(),
    matchesArrType: z.boolean().optional().openapi({ description: "false when the app answering is not the instance's app family" }),
    reason: z.enum(APP_FAILURE_CODES).optional(),
    message: z.string().optional(),
    recoveryAction: z.string().optional(),
  })
  .openapi('InstanceTestResult');

function hasUserinfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}
