import { apiPathSuffix, VERIFICATION_REASONS, VERIFICATION_STATUSES } from '../../domain/instance-verification';
import { ArrTypeSchema } from './common';
import { text, z } from '../http/zod';

const name = text({ min: 1, max: 100 });
const baseUrl = text({ min: 1, max: 500 })
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http:// or https:// URL')
  .refine((v) => !hasUserinfo(v), 'must not contain a user name or password (user:pass@host): the app authenticates with its API key')
  .superRefine((v, ctx) => {
    const suffix = apiPathSuffix(v);
    if (suffix) ctx.addIssue({ code: 'custom', message: `must be the app's address without its API path: drop the trailing ${suffix} (arrgo adds the API path itself)` });
  })
  .openapi({
    example: 'http://radarr:7878',
    description: "http:// or https:// URL of the app (with its URL base, if any), without credentials and without the API path: a URL ending in /api/v3 or /api/v1 is refused, arrgo adds the app's API path itself",
  });
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

const VerificationSchema = z
  .object({
    status: z.enum(VERIFICATION_STATUSES).openapi({
      description:
        "verified: the last connection test reached the app and it is of the instance's type; unverified: it could not be reached, rejected the key, or is another app (reason); " +
        'never-verified: registered before arrgo tested connections at registration, and not tested since (POST /instances/{id}/test verifies it)',
    }),
    checkedAt: z.string().datetime().nullable().openapi({ description: 'When the last connection test ran (registration, a change of baseUrl, arrType or apiKey, or POST /instances/{id}/test)' }),
    appName: z.string().nullable().openapi({ description: 'The app name the app reported at the last test that reached it (at most 100 characters)' }),
    version: z.string().nullable().openapi({ description: 'The version the app reported at the last test that reached it (at most 50 characters)' }),
    reason: z.enum(VERIFICATION_REASONS).nullable().openapi({ description: "Why the instance is unverified: an app failure code of the connection test, or appMismatch (the app is of another type)" }),
  })
  .openapi('InstanceVerification');

export const InstanceSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    arrType: ArrTypeSchema,
    baseUrl: z.string(),
    enabled: z.boolean(),
    tags: z.array(z.string()),
    apiKeySet: z.boolean().openapi({ description: 'An API key is stored (the key itself is never returned)' }),
    verification: VerificationSchema,
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi('Instance');

export const InstanceTestResultSchema = z
  .object({
    reachable: z.boolean(),
    appName: z.string().optional().openapi({ description: 'What the app reported (system/status), when it was reached' }),
    version: z.string().optional(),
    matchesArrType: z.boolean().optional().openapi({ description: "false when the app answering is not of the instance's app type (reason appMismatch)" }),
    detectedArrType: ArrTypeSchema.nullable().optional().openapi({ description: 'The app type of the app that answered; null when it is not Radarr, Sonarr or Lidarr' }),
    reason: z
      .enum(VERIFICATION_REASONS)
      .optional()
      .openapi({ description: 'Why the test failed: an app failure code (not reachable) or appMismatch (reachable, another app type)' }),
    message: z.string().optional().openapi({ description: 'Pre-authored text for the reason' }),
    recoveryAction: z.string().optional(),
  })
  .openapi('InstanceTestResult');

/** A refused registration or change: the message names the field; code appMismatch when the app is of another type. */
export const InstanceRefusalSchema = z
  .object({
    error: z.string(),
    code: z.literal('appMismatch').optional().openapi({ description: 'The app at baseUrl reports another app type than arrType (the message names both); nothing was stored or changed' }),
  })
  .openapi('InstanceRefusal');

export const InstanceRegisteredSchema = InstanceSchema.extend({
  connectionTest: InstanceTestResultSchema.openapi({ description: 'The connection test run before the instance was stored (or changed)' }),
}).openapi('InstanceWithConnectionTest');

export const InstanceUpdatedSchema = InstanceSchema.extend({
  connectionTest: InstanceTestResultSchema.optional().openapi({ description: 'Present when the change of baseUrl, arrType or apiKey was tested' }),
}).openapi('InstanceUpdated');

function hasUserinfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}
