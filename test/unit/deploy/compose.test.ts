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
    const core = Object.keys(services).filter((name) => !services[name].profiles);
    expect(core.sort()).toEqual(['arrgo-api', 'arrgo-worker', 'postgres', 'temporal', 'temporal-register', 'temporal-ui']);
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

  it('adds Prometheus and Grafana with the arrgo scrape job and dashboard as the optional monitoring profile', () => {
    expect(services.prometheus.profiles).toEqual(['monitoring']);
    expect(services.grafana.profiles).toEqual(['monitoring']);
    expect(services.prometheus.volumes).toContain('./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
    expect(services.prometheus.secrets).toEqual(['arrgo-api-key']);
    expect(compose.secrets['arrgo-api-key']).toEqual({ environment: 'ARRGO_API_KEY' });
    expect(services.grafana.volumes).toEqual(expect.arrayContaining(['./deploy/grafana/provisioning:/etc/grafana/provisioning:ro', './deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro']));
    expect(services['arrgo-worker'].environment.METRICS_PORT).toBe(9464);

    const scrape = parse(fs.readFileSync(path.join(ROOT, 'deploy', 'prometheus', 'prometheus.yml'), 'utf8'));
    const job = scrape.scrape_configs.find((j: { job_name: string }) => j.job_name === 'arrgo');
    expect(job).toMatchObject({ metrics_path: '/metrics', authorization: { type: 'Bearer', credentials_file: '/run/secrets/arrgo-api-key' } });
    expect(job.static_configs.flatMap((c: { targets: string[] }) => c.targets)).toEqual(['arrgo-api:7979', 'arrgo-worker:9464']);

    const dashboard = JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy', 'grafana', 'dashboards', 'arrgo.json'), 'utf8'));
    const exprs = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr)).join('\n');
    for (const metric of [
      'arrgo_http_request_duration_seconds',
      'arrgo_sync_runs_total',
      'arrgo_sync_apply_duration_seconds',
      'arrgo_instances',
      'arrgo_rollouts',
      'arrgo_rollout_gate_wait_seconds',
      'arrgo_pcd_cache_builds_total',
      'arrgo_pcd_cache_build_duration_seconds',
      'arrgo_notification_deliveries_total',
      'arrgo_worker_activity_schedule_to_start_seconds',
      'arrgo_worker_activity_execution_seconds',
    ]) {
      expect(exprs).toContain(metric);
    }
    expect(new Set(dashboard.panels.map((p: { id: number }) => p.id)).size).toBe(dashboard.panels.length);
    const datasource = parse(fs.readFileSync(path.join(ROOT, 'deploy', 'grafana', 'provisioning', 'datasources', 'prometheus.yml'), 'utf8'));
    expect(datasource.datasources[0]).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090' });
  });
});
