import { createHash } from 'node:crypto';
import type { AnyArrClient } from '../../clients/arr-client';
import { AppRequestError } from '../../clients/http';
import type { AppCallFailure } from '../../domain/failure-evidence';
import type { LiveState } from '../../domain/sync';

export type LivePart = keyof LiveState;

export interface LiveRead {
  live: LiveState;
  /** Parts that could not be read, with how the call failed. */
  failures: Partial<Record<LivePart, AppCallFailure>>;
}

/** Reads the parts of an app's state a preview needs, in parallel; failures are kept per part. */
export async function readLiveState(client: AnyArrClient, parts: readonly LivePart[]): Promise<LiveRead> {
  const live: LiveState = {};
  const failures: LiveRead['failures'] = {};
  await Promise.all(
    parts.map(async (part) => {
      try {
        (live as Record<string, unknown>)[part] = await readPart(client, part);
      } catch (error) {
        if (!(error instanceof AppRequestError)) throw error;
        if (part === 'qualityDefinitionLimits') return; // optional: the documented limits apply
        failures[part] = error.failure;
      }
    }),
  );
  return { live, failures };
}

/** The app could not say who it is (its system/status failed): every part fails the same way, unread. */
export function unreadLiveState(parts: readonly LivePart[], failure: AppCallFailure): LiveRead {
  return { live: {}, failures: Object.fromEntries(parts.map((part) => [part, failure])) };
}

function readPart(client: AnyArrClient, part: LivePart): Promise<unknown> {
  switch (part) {
    case 'customFormats':
      return client.listCustomFormats();
    case 'qualityProfiles':
      return client.listQualityProfiles();
    case 'qualityDefinitions':
      return client.listQualityDefinitions();
    case 'qualityDefinitionLimits':
      return 'qualityDefinitionLimits' in client ? client.qualityDefinitionLimits() : Promise.resolve(null);
    case 'languages':
      return client.listLanguages();
    case 'delayProfiles':
      return client.listDelayProfiles();
    case 'naming':
      return client.getNamingConfig();
    case 'mediaManagement':
      return client.getMediaManagementConfig();
    case 'metadataProfiles':
      return 'listMetadataProfiles' in client ? client.listMetadataProfiles() : Promise.resolve([]);
  }
}

/** A stable hash of what a preview was computed against (key order independent). */
export function fingerprint(live: LiveState): string {
  return createHash('sha256').update(stableStringify(live)).digest('hex');
}

/** JSON with object keys sorted; built by concatenation (no per-level arrays), as it runs per preview. */
function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + stableStringify(value[i]);
    return out + ']';
  }
  const keys = Object.keys(value).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + JSON.stringify(keys[i]) + ':' + stableStringify((value as Record<string, unknown>)[keys[i]]);
  return out + '}';
}
