import { createArrClient } from '../../../src/clients';
import { arrTypeOfAppName, type ArrType } from '../../../src/domain/arr-types';
import { appMismatchEvidence } from '../../../src/domain/failure-evidence';
import { apiPathSuffix, appMismatchRefusal, verificationOf } from '../../../src/domain/instance-verification';
import { startEmulator, type Emulator, type EmulatorApp } from '../../../src/emulators';
import { checkAppIdentity } from '../../../src/services/instances/app-identity';

const API_KEY = 'identity-unit-key-0123456789';

describe('app identity (domain)', () => {
  it('maps the app name of system/status to its family, and nothing else', () => {
    expect(['Radarr', 'sonarr', ' LIDARR '].map(arrTypeOfAppName)).toEqual(['movie_app', 'series_app', 'music_app']);
    expect(['Prowlarr', 'Readarr', '', 'radarr4k'].map(arrTypeOfAppName)).toEqual([null, null, null, null]);
  });

  it('names both families in the mismatch evidence and the registration refusal', () => {
    expect(appMismatchEvidence('movie_app', 'series_app')).toEqual({
      code: 'appMismatch',
      message: "The app at this instance's URL is not a Radarr instance: it answers as Sonarr (series_app).",
      recoveryAction: 'Point the instance at its Radarr app, or register the app at that URL as a series_app instance.',
      detectedArrType: 'series_app',
    });
    expect(appMismatchEvidence('music_app', null)).toMatchObject({
      message: "The app at this instance's URL is not a Lidarr instance: it answers as an app that is not Radarr, Sonarr or Lidarr.",
      recoveryAction: 'Point the instance at its Lidarr app.',
      detectedArrType: null,
    });
    expect(appMismatchRefusal('baseUrl', 'series_app', 'movie_app', 'changed')).toBe(
      'Invalid request: body.baseUrl: the app at baseUrl answers as Radarr (movie_app), but arrType is series_app (Sonarr). Give the address of a Sonarr app, or use arrType movie_app for this one; nothing was changed.',
    );
  });

  it('records a connection test as verified, or unverified with its reason', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    expect(verificationOf({ reachable: true, appName: 'Radarr', version: '6.1', matchesArrType: true, detectedArrType: 'movie_app' }, at)).toEqual({ status: 'verified', checkedAt: at, appName: 'Radarr', version: '6.1', reason: null });
    expect(verificationOf({ reachable: true, appName: 'Sonarr', version: '4.0', matchesArrType: false, detectedArrType: 'series_app' }, at)).toEqual({ status: 'unverified', checkedAt: at, appName: 'Sonarr', version: '4.0', reason: 'appMismatch' });
    expect(verificationOf({ reachable: false, reason: 'timeout' }, at)).toEqual({ status: 'unverified', checkedAt: at, appName: null, version: null, reason: 'timeout' });
  });

  it("finds an API path at the end of a base URL, never one inside the app's URL base", () => {
    expect(apiPathSuffix('http://radarr:7878/api/v3')).toBe('/api/v3');
    expect(apiPathSuffix('http://radarr:7878/api/v3/')).toBe('/api/v3');
    expect(apiPathSuffix('https://host/radarr/API/V1//')).toBe('/API/V1');
    for (const fine of ['http://radarr:7878', 'http://radarr:7878/', 'http://host/api', 'http://host/api/v3/radarr', 'http://host/api-v3', 'not a url']) expect(apiPathSuffix(fine)).toBeNull();
  });
});

describe('checkAppIdentity against the emulators', () => {
  const emulators: Partial<Record<EmulatorApp, Emulator>> = {};
  beforeAll(async () => {
    for (const app of ['radarr', 'sonarr', 'lidarr'] as EmulatorApp[]) emulators[app] = await startEmulator({ app, apiKey: API_KEY });
  });
  afterAll(async () => {
    for (const emulator of Object.values(emulators)) await emulator.close();
  });

  const check = (arrType: ArrType, app: EmulatorApp, apiKey = API_KEY) => checkAppIdentity(createArrClient({ arrType, baseUrl: emulators[app]!.baseUrl, apiKey }, 2000));

  it('matches each app with its own family', async () => {
    for (const [arrType, app] of [['movie_app', 'radarr'], ['series_app', 'sonarr'], ['music_app', 'lidarr']] as [ArrType, EmulatorApp][]) {
      expect(await check(arrType, app)).toEqual({ status: 'matches', identity: { appName: emulators[app]!.appName, version: emulators[app]!.version, arrType } });
    }
  });

  it('recognises an app of another family, also under the other API version', async () => {
    expect(await check('movie_app', 'sonarr')).toMatchObject({ status: 'mismatch', identity: { appName: 'Sonarr', arrType: 'series_app' }, evidence: { code: 'appMismatch', detectedArrType: 'series_app' } });
    // Lidarr has no /api/v3, Radarr no /api/v1: the other path answers.
    expect(await check('movie_app', 'lidarr')).toMatchObject({ status: 'mismatch', identity: { appName: 'Lidarr', arrType: 'music_app' } });
    expect(await check('music_app', 'radarr')).toMatchObject({ status: 'mismatch', identity: { appName: 'Radarr', arrType: 'movie_app' } });
  });

  it('returns a failed call as its classified failure, never thrown', async () => {
    expect(await check('movie_app', 'radarr', 'wrong-key-000000')).toEqual({ status: 'failed', failure: 'unauthorized', httpStatus: 401 });
    const fault = emulators.radarr!.faults.add({ kind: 'status', status: 503, path: '/system/status', times: 1 });
    expect(await check('movie_app', 'radarr')).toEqual({ status: 'failed', failure: 'serverError', httpStatus: 503 });
    emulators.radarr!.faults.remove(fault.id);
    expect(await checkAppIdentity(createArrClient({ arrType: 'series_app', baseUrl: 'http://127.0.0.1:9', apiKey: API_KEY }, 2000))).toEqual({ status: 'failed', failure: 'unreachable', httpStatus: undefined });
  });
});
