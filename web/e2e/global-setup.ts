import type { FullConfig } from '@playwright/test';
import { startArrgo, startEmulatedApp } from './services';

/**
 * Two arrgo services (one at the root, one under URL_BASE /arrgo, sharing the first one's
 * embedded Temporal dev server) and emulated Radarr and Sonarr apps. The tests find them through
 * the ARRGO_E2E_* variables; the returned function stops them all.
 */
export default async function globalSetup(_config: FullConfig) {
  const root = await startArrgo();
  const stops = [root.stop];
  try {
    const [based, radarr, sonarr] = await Promise.all([startArrgo({ urlBase: '/arrgo', temporalAddress: root.temporalAddress }), startEmulatedApp('radarr'), startEmulatedApp('sonarr')]);
    stops.unshift(based.stop, radarr.stop, sonarr.stop);
    Object.assign(process.env, {
      ARRGO_E2E_URL: root.url,
      ARRGO_E2E_API_KEY: root.apiKey,
      ARRGO_E2E_BASED_URL: based.url,
      ARRGO_E2E_BASED_API_KEY: based.apiKey,
      ARRGO_E2E_RADARR_URL: radarr.url,
      ARRGO_E2E_RADARR_KEY: radarr.apiKey,
      ARRGO_E2E_RADARR_VERSION: radarr.version,
      ARRGO_E2E_SONARR_URL: sonarr.url,
      ARRGO_E2E_SONARR_KEY: sonarr.apiKey,
    });
  } catch (error) {
    await Promise.all(stops.map((stop) => stop()));
    throw error;
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
