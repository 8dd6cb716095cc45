/** /system/status and /language. */
import type { SystemResource } from '../../domain/app-resources';
import type { AppFacts } from '../apps/facts';
import { httpErrors } from '../http-errors';
import { renderLanguages, stripNulls } from '../render';
import type { Route } from '../router';
import { ok } from './rest';

export function systemStatus(facts: AppFacts, version: string, startTime: Date): SystemResource {
  const status: SystemResource = {
    appName: facts.appName,
    instanceName: facts.appName,
    version,
    buildTime: '2025-11-14T23:14:05Z',
    isDebug: false,
    isProduction: true,
    isAdmin: false,
    isUserInteractive: false,
    startupPath: `/app/${facts.app}/bin`,
    appData: '/config',
    osName: 'ubuntu',
    osVersion: '24.04',
    isNetCore: true,
    isLinux: true,
    isOsx: false,
    isWindows: false,
    isDocker: true,
    mode: 'console',
    branch: facts.system.branch,
    databaseType: 'sqLite',
    databaseVersion: facts.system.databaseVersion,
    authentication: 'forms',
    migrationVersion: facts.system.migrationVersion,
    urlBase: '',
    runtimeVersion: facts.system.runtimeVersion,
    runtimeName: '.NET',
    startTime: startTime.toISOString(),
    packageVersion: `${version}-emulated`,
    packageAuthor: 'arrgo emulator',
    packageUpdateMechanism: 'docker',
  };
  if (facts.system.sqliteVersion) status.sqliteVersion = facts.system.sqliteVersion;
  return stripNulls(status);
}

export function systemRoutes(version: string, startTime: Date): Route[] {
  return [
    { method: 'GET', pattern: 'system/status', handler: ({ facts }) => ok(systemStatus(facts, version, startTime)) },
    { method: 'GET', pattern: 'language', handler: ({ facts }) => ok(renderLanguages(facts)) },
    {
      method: 'GET',
      pattern: 'language/{id}',
      handler: ({ facts, id }) => {
        const found = renderLanguages(facts).find((language) => language.id === id);
        if (!found) throw httpErrors.notFound();
        // RestController<LanguageResource>.GetResourceById returns id and name (nameLower derives from name).
        return ok(found);
      },
    },
  ];
}
