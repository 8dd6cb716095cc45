import { ArrTypeSchema } from './common';
import { z } from '../http/zod';

const name = z.string().trim().min(1).max(100);
const baseUrl = z
  .string()
  .trim()
  .max(500)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http:// or https:// URL')
  .openapi({ example: 'http://radarr:7878' });
const apiKey = z.string().trim().min(1).max(200).openapi({ description: 'The app API key (Settings > General). Write-only: never returned.', writeOnly: true });
const tags = z.array(z.string().trim().min(1).max(50)).max(50);

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
    reason: z.enum(['unreachable', 'timeout', 'unauthorized', 'notFound', 'rejected', 'serverError']).optional(),
    message: z.string().optional(),
    recoveryAction: z.string().optional(),
  })
  .openapi('InstanceTestResult');
