import path from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config';

describe('configuration from the environment', () => {
  it('has working defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(7979);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.database).toEqual({ kind: 'sqlite', file: path.join(path.resolve('./data'), 'arrgo.sqlite') });
    expect(config.temporal).toMatchObject({ address: null, namespace: 'default', taskQueue: 'arrgo', devServerUiPort: 8233, devServerUiBindAddress: '127.0.0.1' });
    expect(config.logLevel).toBe('info');
    expect(config.apiKey).toBeUndefined();
    expect(config.notifications).toEqual({ requestTimeoutMs: 10_000, retry: { initialIntervalMs: 5000, maximumAttempts: 8 }, driftWindowMinutes: 30, gateWaitMinutes: 60 });
    expect(config.metrics).toEqual({ public: false, workerPort: 0 });
    expect(config.publicUrl).toBeNull();
    expect([config.urlBase, config.sessionTtlHours, config.trustProxy]).toEqual(['', 168, false]);
  });

  it('reads the URL base, session lifetime and proxy trust', () => {
    expect(loadConfig({ URL_BASE: '/arrgo', SESSION_TTL_HOURS: '12', TRUST_PROXY: 'true' })).toMatchObject({ urlBase: '/arrgo', sessionTtlHours: 12, trustProxy: true });
    expect(loadConfig({ URL_BASE: '/media/arr-go_1.x' }).urlBase).toBe('/media/arr-go_1.x');
    expect(loadConfig({ URL_BASE: '' }).urlBase).toBe('');
    // The public URL's path must end with the base: links are built from it.
    expect(loadConfig({ URL_BASE: '/arrgo', ARRGO_PUBLIC_URL: 'https://home.lan/arrgo/' }).publicUrl).toBe('https://home.lan/arrgo');
    expect(loadConfig({ URL_BASE: '/arrgo', ARRGO_PUBLIC_URL: 'https://home.lan/apps/arrgo' }).publicUrl).toBe('https://home.lan/apps/arrgo');
  });

  it('reads notification and metrics settings', () => {
    const config = loadConfig({ NOTIFY_DRIFT_WINDOW_MINUTES: '0', NOTIFY_GATE_WAIT_MINUTES: '5', METRICS_PUBLIC: 'true', METRICS_PORT: '9464', ARRGO_PUBLIC_URL: 'https://arrgo.lan/' });
    expect(config.notifications).toMatchObject({ driftWindowMinutes: 0, gateWaitMinutes: 5 });
    expect(config.metrics).toEqual({ public: true, workerPort: 9464 });
    expect(config.publicUrl).toBe('https://arrgo.lan');
  });

  it('sizes the worker and the PostgreSQL pool from the environment', () => {
    expect(loadConfig({})).toMatchObject({ workerMaxConcurrentActivities: 50, databasePoolMax: 10 });
    expect(loadConfig({ WORKER_MAX_CONCURRENT_ACTIVITIES: '8', DATABASE_POOL_MAX: '24' })).toMatchObject({ workerMaxConcurrentActivities: 8, databasePoolMax: 24 });
  });

  it('selects PostgreSQL from DATABASE_URL and an external Temporal from TEMPORAL_ADDRESS', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/arrgo', TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_NAMESPACE: 'media' });
    expect(config.database).toEqual({ kind: 'postgresql', url: 'postgres://u:p@db:5432/arrgo' });
    expect(config.temporal).toMatchObject({ address: 'temporal:7233', namespace: 'media' });
  });

  it('binds the embedded Temporal Web UI to the address given (loopback when unset or empty)', () => {
    expect(loadConfig({ TEMPORAL_UI_BIND_ADDRESS: '0.0.0.0' }).temporal.devServerUiBindAddress).toBe('0.0.0.0');
    expect(loadConfig({ TEMPORAL_UI_BIND_ADDRESS: 'fd00::5' }).temporal.devServerUiBindAddress).toBe('fd00::5');
    expect(loadConfig({ TEMPORAL_UI_BIND_ADDRESS: '' }).temporal.devServerUiBindAddress).toBe('127.0.0.1');
  });

  it.each([
    [{ TEMPORAL_UI_BIND_ADDRESS: 'temporal.lan' }, 'Invalid configuration: TEMPORAL_UI_BIND_ADDRESS must be an IPv4 or IPv6 address (the interface the embedded Temporal Web UI listens on) (got "temporal.lan")'],
    [{ TEMPORAL_UI_BIND_ADDRESS: '10.0.0.300' }, 'Invalid configuration: TEMPORAL_UI_BIND_ADDRESS must be an IPv4 or IPv6 address'],
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer between 0 and 65535 (got "abc")'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be an integer between 0 and 65535 (got "70000")'],
    [{ LOG_LEVEL: 'loud' }, 'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ TEMPORAL_ADDRESS: 'localhost' }, 'Invalid configuration: TEMPORAL_ADDRESS must be host:port'],
    [{ ARRGO_API_KEY: 'short' }, 'Invalid configuration: ARRGO_API_KEY must be 16 to 128 characters'],
    [{ ARRGO_SECRET: 'too-short' }, 'Invalid configuration: ARRGO_SECRET must be at least 32 characters'],
    [{ BACKUP_ENABLED: 'maybe' }, 'Invalid configuration: BACKUP_ENABLED must be true or false'],
    [{ METRICS_PUBLIC: 'open' }, 'Invalid configuration: METRICS_PUBLIC must be true or false'],
    [{ NOTIFY_RETRY_MAX_ATTEMPTS: '0' }, 'Invalid configuration: NOTIFY_RETRY_MAX_ATTEMPTS must be an integer between 1 and 50'],
    [{ ARRGO_PUBLIC_URL: 'arrgo.lan' }, 'Invalid configuration: ARRGO_PUBLIC_URL must be the http:// or https:// URL users reach arrgo at'],
    [{ WORKER_MAX_CONCURRENT_ACTIVITIES: '0' }, 'Invalid configuration: WORKER_MAX_CONCURRENT_ACTIVITIES must be an integer between 1 and 1000'],
    [{ DATABASE_POOL_MAX: '500' }, 'Invalid configuration: DATABASE_POOL_MAX must be an integer between 1 and 200'],
    [{ URL_BASE: 'arrgo' }, 'Invalid configuration: URL_BASE must be a path such as /arrgo: starting with "/", not ending with "/"'],
    [{ URL_BASE: '/arrgo/' }, 'Invalid configuration: URL_BASE must be a path such as /arrgo'],
    [{ URL_BASE: '/' }, 'Invalid configuration: URL_BASE must be a path such as /arrgo'],
    [{ URL_BASE: '/a/../b' }, 'Invalid configuration: URL_BASE must be a path such as /arrgo'],
    [{ URL_BASE: '/ar rgo' }, 'Invalid configuration: URL_BASE must be a path such as /arrgo'],
    [{ URL_BASE: `/${'a'.repeat(100)}` }, 'Invalid configuration: URL_BASE must be at most 100 characters'],
    [{ SESSION_TTL_HOURS: '0' }, 'Invalid configuration: SESSION_TTL_HOURS must be an integer between 1 and 8784'],
    [{ TRUST_PROXY: 'sometimes' }, 'Invalid configuration: TRUST_PROXY must be true or false'],
    [{ URL_BASE: '/arrgo', ARRGO_PUBLIC_URL: 'https://home.lan' }, 'Invalid configuration: ARRGO_PUBLIC_URL must end with URL_BASE (/arrgo): links are built from it, so its path (/) must be the one arrgo is served under'],
    [{ URL_BASE: '/arrgo', ARRGO_PUBLIC_URL: 'https://home.lan/xarrgo' }, 'Invalid configuration: ARRGO_PUBLIC_URL must end with URL_BASE (/arrgo)'],
  ])('refuses %j with one line naming the variable', (env, message) => {
    let error: unknown;
    try {
      loadConfig(env as NodeJS.ProcessEnv);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect((error as Error).message).not.toContain('\n');
  });

  it('never echoes a secret value in the error', () => {
    expect(() => loadConfig({ ARRGO_SECRET: 'hunter2-secret' })).toThrow(/\(got "\[redacted\]"\)/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:pw@host/db' })).not.toThrow(/pw@host/);
  });
});
