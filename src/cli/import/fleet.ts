import type { FleetProblem } from '../fleet/load';
import { envNamePart, secretEnvName } from '../fleet/export';
import type { InstanceFile, SecretRef } from '../fleet/schema';
import type { ToolConfig, ToolInstance, ToolSecret } from './read';

const ARR_TYPE_OF_SECTION = { radarr: 'movie_app', sonarr: 'series_app', lidarr: 'music_app' } as const;

export function arrTypeOf(instance: ToolInstance): InstanceFile['type'] {
  return ARR_TYPE_OF_SECTION[instance.section];
}

/** How an instance's key is written in the fleet file, and what the user has to know about it. */
export function fleetSecret(instance: ToolInstance, config: ToolConfig, file: string): { apiKey: SecretRef; note?: FleetProblem } {
  const at = (message: string): FleetProblem => ({ file, line: instance.line, column: 1, message: `${instance.section}.${instance.name}.api_key: ${message}` });
  const key: ToolSecret = instance.apiKey ?? { inline: true };
  if ('env' in key) return { apiKey: { env: key.env } };
  if ('file' in key) return { apiKey: { file: key.file }, note: at(`!file ${key.file} is kept; the path is now relative to the fleet file`) };
  if ('secret' in key) {
    const env = envNameOf(key.secret);
    return { apiKey: { env }, note: at(`!secret ${key.secret} became !env ${env}: set ${env} to the value of ${key.secret} in your ${config.tool === 'recyclarr' ? 'secrets.yml' : 'secrets file'}`) };
  }
  const env = secretEnvName('INSTANCE', instance.name, 'API_KEY');
  return { apiKey: { env }, note: at(`the key was written inline and is not copied: set ${env}`) };
}

/** A secret's name as an environment variable name: upper case, other characters as _. */
function envNameOf(secret: string): string {
  const name = envNamePart(secret);
  return /^[A-Z_]/.test(name) ? name : `_${name}`;
}

/** The fleet file's instance for a tool's instance: synced from the database with the profiles (and quality definitions) the file names. */
export function fleetInstance(instance: ToolInstance, apiKey: SecretRef, databaseName: string, profileNames: string[], qualityDefinitions?: string): InstanceFile {
  return {
    name: instance.name,
    type: arrTypeOf(instance),
    baseUrl: (instance.baseUrl ?? 'http://change-me').replace(/\/+$/, ''),
    apiKey,
    ...(instance.enabled ? {} : { enabled: false }),
    sync: [{ database: databaseName, ...(profileNames.length ? { qualityProfiles: [...new Set(profileNames)] } : {}), ...(qualityDefinitions ? { qualityDefinitions } : {}) }],
  };
}
