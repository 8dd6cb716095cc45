import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { readSearchAttributes } from '../../../temporal/provision.cjs';
import { SA } from '../../../src/workflows/contracts';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** No Docker engine runs here, so the compose stack is checked by reading it. */
describe('docker-compose.yml', () => {
  const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });
  const services = compose.services as Record<string, any>;

  it('runs PostgreSQL, Temporal on PostgreSQL, the Web UI, search-attribute registration, and arrgo api + worker', () => {
    expect(Object.keys(services).sort()).toEqual(['arrgo-api', 'arrgo-worker', 'postgres', 'temporal', 'temporal-register', 'temporal-ui']);
    expect(services.postgres.image).toMatch(/^postgres:15/);
    expect(services.temporal.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgres' });
    expect(services.temporal.depends_on.postgres.condition).toBe('service_healthy');
  });

  it('publishes the API on 7979 and the Temporal Web UI on 8233', () => {
    expect(services['arrgo-api'].ports).toEqual(['7979:7979']);
    expect(services['temporal-ui'].ports).toEqual(['8233:8080']);
    expect(services['temporal-ui'].environment.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(services['arrgo-worker'].ports).toBeUndefined();
  });

  it('wires both arrgo services to the same PostgreSQL, Temporal and secret', () => {
    for (const name of ['arrgo-api', 'arrgo-worker']) {
      const env = services[name].environment;
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/arrgo:\$\{POSTGRES_PASSWORD[^}]*\}@postgres:5432\/arrgo$/);
      expect(env.TEMPORAL_ADDRESS).toBe('temporal:7233');
      expect(env.ARRGO_SECRET).toMatch(/^\$\{ARRGO_SECRET:\?/);
      expect(env.ARRGO_API_KEY).toMatch(/^\$\{ARRGO_API_KEY:\?/);
      expect(services[name].volumes).toContain('arrgo-data:/data');
    }
    expect(services['arrgo-api'].command).toEqual(['node', 'dist/main.js', '--role', 'api']);
    expect(services['arrgo-worker'].command).toEqual(['node', 'dist/main.js', '--role', 'worker']);
    expect(services['arrgo-api'].depends_on['temporal-register'].condition).toBe('service_completed_successfully');
    expect(services['arrgo-worker'].depends_on['arrgo-api'].condition).toBe('service_healthy');
  });

  it('health-checks every long-running service', () => {
    for (const name of ['postgres', 'temporal', 'temporal-ui', 'arrgo-api', 'arrgo-worker']) {
      expect(services[name].healthcheck?.test).toBeDefined();
    }
    expect(services['arrgo-api'].healthcheck.test).toEqual(['CMD', 'node', 'dist/scripts/healthcheck.js', 'api']);
    expect(services['arrgo-worker'].healthcheck.test).toEqual(['CMD', 'node', 'dist/scripts/healthcheck.js', 'worker']);
    expect(fs.existsSync(path.join(ROOT, 'src', 'scripts', 'healthcheck.ts'))).toBe(true);
  });

  it('registers every search attribute the workflows use and mounts the dynamic config', () => {
    const register = services['temporal-register'];
    expect(register.volumes).toEqual(
      expect.arrayContaining([
        './temporal/register-search-attributes.sh:/usr/local/bin/register-search-attributes.sh:ro',
        './temporal/search-attributes.json:/etc/arrgo/search-attributes.json:ro',
      ]),
    );
    const declared = readSearchAttributes();
    expect(Object.keys(declared).sort()).toEqual(Object.values(SA).map((k) => k.name).sort());
    for (const key of Object.values(SA)) {
      expect(declared[key.name]).toBe({ KEYWORD: 'Keyword', KEYWORD_LIST: 'KeywordList', INT: 'Int' }[key.type as string]);
    }
    const script = fs.readFileSync(path.join(ROOT, 'temporal', 'register-search-attributes.sh'), 'utf8');
    expect(script).toContain('temporal operator search-attribute create');
    expect(services.temporal.volumes).toContain('./temporal/dynamic-config.yaml:/etc/temporal/config/dynamicconfig/arrgo.yaml:ro');
    expect(services.temporal.environment.DYNAMIC_CONFIG_FILE_PATH).toBe('config/dynamicconfig/arrgo.yaml');
  });

  it('builds arrgo from the Dockerfile with a prebuilt workflow bundle', () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/FROM node:20/);
    expect(dockerfile).toContain('npm ci');
    expect(dockerfile).toContain('npm run build'); // emits dist/workflow-bundle.js
    expect(dockerfile).toMatch(/apt-get install[^\n]*git/); // PCD databases are cloned with the system git
    expect(services['arrgo-api'].build).toBe('.');
  });
});
