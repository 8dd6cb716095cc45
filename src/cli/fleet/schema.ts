import { z } from 'zod';
import type { components } from '../../client';

type Schemas = components['schemas'];

/** A secret in the fleet file: `!env NAME` or `!file path` (read when needed); a plain string only with --allow-inline-secrets. */
export type SecretRef = { env: string } | { file: string };
export type SecretValue = SecretRef | string;

// The API's vocabularies, as the CLI validates them before any request (the typecheck fails when the API's change).
export const ARR_TYPES = ['movie_app', 'series_app', 'music_app'] as const satisfies readonly Schemas['ArrType'][];
export const REF_GUIDE_ARR_TYPES = ['movie_app', 'series_app'] as const satisfies readonly Schemas['RefGuideArrType'][];
export const CHANNEL_KINDS = ['webhook', 'discord'] as const satisfies readonly Schemas['NotificationChannel']['kind'][];
export const EVENT_TYPES = [
  'drift.detected',
  'drift.resolved',
  'rollout.awaiting_gate',
  'rollout.completed',
  'rollout.failed',
  'rollout.aborted',
  'sync.failed',
  'health.dropped',
  'pcd.pull_failed',
  'ref_guide.sync_failed',
] as const satisfies readonly Schemas['NotificationEventType'][];
type Exhaustive<All, Listed> = [All] extends [Listed] ? true : never;
const vocabulariesComplete: [
  Exhaustive<Schemas['ArrType'], (typeof ARR_TYPES)[number]>,
  Exhaustive<Schemas['NotificationEventType'], (typeof EVENT_TYPES)[number]>,
  Exhaustive<Schemas['NotificationChannel']['kind'], (typeof CHANNEL_KINDS)[number]>,
] = [true, true, true];
void vocabulariesComplete;

const line = (max: number) => z.string().trim().min(1).max(max);
const name = line(100);
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,199}$/, 'must be an environment variable name (letters, digits, _; at most 200)');

const secret = (max: number) =>
  z.union([
    z.object({ env: envName }).strict().describe('`!env NAME`: the value of the environment variable NAME'),
    z.object({ file: line(1000) }).strict().describe('`!file path`: the contents of the file (trailing newline dropped), relative to the fleet file'),
    z.string().min(1).max(max).describe('An inline value: refused unless --allow-inline-secrets is given'),
  ]);

const gitOrLocal = z.union([
  z
    .object({
      git: line(1000).describe('A git URL without credentials (https://, http://, ssh://, git@host:, file://)'),
      branch: line(200).optional().describe('Default main'),
      token: secret(1000).optional().describe("A private repository's token: `!env` or `!file`"),
      tokenUsername: line(100).optional(),
    })
    .strict(),
  z.object({ local: line(1000).describe('An absolute directory') }).strict(),
]);

export const SyncEntrySchema = z
  .object({
    database: name.describe('The name of a database in this file'),
    qualityProfiles: z.array(name).max(100).optional(),
    delayProfile: name.optional(),
    naming: name.optional(),
    mediaSettings: name.optional(),
    qualityDefinitions: name.optional(),
    metadataProfile: name.optional().describe('music_app only'),
    namespace: line(50).optional().describe("Suffix on every name arrgo writes; the first database's applies"),
    deleteUnmanaged: z.boolean().optional().describe("The first database's applies; default false"),
  })
  .strict();

export const InstanceFileSchema = z
  .object({
    name,
    type: z.enum(ARR_TYPES).describe('movie_app (Radarr), series_app (Sonarr) or music_app (Lidarr)'),
    baseUrl: line(500).describe("The app's address without its API path"),
    apiKey: secret(200).describe('`!env NAME` or `!file path`'),
    enabled: z.boolean().optional().describe('Default true'),
    tags: z.array(line(50)).max(50).optional(),
    sync: z.array(SyncEntrySchema).min(1).max(8).optional().describe('The databases that feed the instance, highest priority first; absent: the instance is not synced'),
  })
  .strict();

export const DatabaseFileSchema = z.object({ name, source: gitOrLocal, enabled: z.boolean().optional().describe('Default true') }).strict();

export const RefGuideSourceFileSchema = z
  .object({
    name,
    arrType: z.enum(REF_GUIDE_ARR_TYPES),
    source: gitOrLocal,
    enabled: z.boolean().optional().describe('Default true'),
    databases: z.array(name).max(50).optional().describe('Names of databases in this file this source is the reference of'),
  })
  .strict();

export const ChannelFileSchema = z
  .object({
    name,
    kind: z.enum(CHANNEL_KINDS),
    url: secret(2000).describe('Where events are POSTed: `!env` or `!file`'),
    secret: secret(256).optional().describe('webhook only: the HMAC key'),
    events: z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length),
    enabled: z.boolean().optional().describe('Default true'),
  })
  .strict();

const schedule = (minInterval: number) => z.object({ enabled: z.boolean(), intervalMinutes: z.number().int().min(minInterval).max(10_080) }).strict();

export const SettingsFileSchema = z
  .object({
    driftPolling: schedule(1).optional(),
    refGuideRefresh: schedule(5).optional(),
    syncHistoryRetention: z.object({ enabled: z.boolean(), retentionDays: z.number().int().min(1).max(3650), retentionMaxEntries: z.number().int().min(0).max(1_000_000) }).strict().optional(),
    snapshots: z.object({ maxPerDatabase: z.number().int().min(1).max(1000), retentionDays: z.number().int().min(0).max(3650) }).strict().optional(),
  })
  .strict();

const TOP_LEVEL_KEYS = new Set(['version', 'include', 'databases', 'refGuideSources', 'instances', 'channels', 'settings']);

const list = <T extends z.ZodTypeAny>(item: T) => z.array(item).max(5000).optional();

/** One fleet file (each included file too): every key optional, lists merged across includes. */
export const FleetFileSchema = z
  .object({
    version: z.literal(1).optional().describe('The file format version (1)'),
    include: z.array(line(1000)).max(100).optional().describe('Other fleet files, relative to this one'),
    databases: list(DatabaseFileSchema),
    refGuideSources: list(RefGuideSourceFileSchema),
    instances: list(InstanceFileSchema),
    channels: list(ChannelFileSchema),
    settings: SettingsFileSchema.optional(),
  })
  .passthrough()
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      // Keys starting with x- or . hold anchors (`x-defaults: &defaults`) for merge keys.
      if (!TOP_LEVEL_KEYS.has(key) && !key.startsWith('x-') && !key.startsWith('.')) ctx.addIssue({ code: 'custom', path: [key], message: `unknown key ${key}` });
    }
  });

export type FleetFile = z.infer<typeof FleetFileSchema>;
export type InstanceFile = z.infer<typeof InstanceFileSchema>;
export type DatabaseFile = z.infer<typeof DatabaseFileSchema>;
export type RefGuideSourceFile = z.infer<typeof RefGuideSourceFileSchema>;
export type ChannelFile = z.infer<typeof ChannelFileSchema>;
export type SettingsFile = z.infer<typeof SettingsFileSchema>;
export type SyncEntryFile = z.infer<typeof SyncEntrySchema>;
export type GitOrLocal = z.infer<typeof gitOrLocal>;
