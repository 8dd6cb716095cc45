import { ConfigError, loadConfig, type Role } from './config';
import { startService } from './composition/service';

function parseRole(argv: string[]): Role {
  const index = argv.indexOf('--role');
  const role = index >= 0 ? argv[index + 1] : 'all';
  if (role !== 'all' && role !== 'api' && role !== 'worker') {
    throw new ConfigError(`Invalid --role ${JSON.stringify(role)}: must be all, api or worker`);
  }
  return role;
}

async function main(): Promise<void> {
  let config;
  let role: Role;
  try {
    config = loadConfig();
    role = parseRole(process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(error.message + '\n');
      process.exit(1);
    }
    throw error;
  }
  const service = await startService({ role, config });
  const lines = [`arrgo ${role === 'all' ? '' : `(${role}) `}is running`];
  if (service.apiUrl) {
    const base = `${service.apiUrl}${config.urlBase}`;
    lines.push(`  Console:          ${base}/`, `  API:              ${base}/api/v1`, `  API docs:         ${base}/docs/`);
  }
  if (service.temporalUiUrl) lines.push(`  Temporal Web UI:  ${service.temporalUiUrl}`);
  lines.push(`  Data directory:   ${config.dataDir}`);
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.logger.info({ signal }, 'shutting down');
    service
      .stop()
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
    setTimeout(() => process.exit(1), 30_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`arrgo failed to start: ${error instanceof Error ? error.message : 'unknown error'}\n`);
  process.exit(1);
});
