/**
 * Runs one emulator in the foreground (for the demo):
 *
 *   node dist/emulators/cli.js --app radarr --port 7878 --api-key <key> [--host 127.0.0.1] [--version 6.1.0.10293]
 *
 * Prints where it listens, then serves until SIGINT/SIGTERM. Control endpoints: /__emulator/ (same key).
 */
import { EMULATOR_APPS, isEmulatorApp, startEmulator } from './index';

interface CliOptions {
  app: string;
  port: number;
  apiKey: string;
  host: string;
  version?: string;
}

const USAGE = `usage: emulator --app <${EMULATOR_APPS.join('|')}> --port <n> --api-key <key> [--host <ip>] [--version <v>]`;

export function parseArgs(argv: string[]): CliOptions {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument: ${arg}`);
    const [name, inline] = arg.slice(2).split('=', 2);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`missing value for --${name}`);
    values[name] = value;
  }
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be an integer between 0 and 65535');
  if (!values.app) throw new Error('--app is required');
  const apiKey = values['api-key'] ?? process.env.EMULATOR_API_KEY;
  if (!apiKey) throw new Error('--api-key is required (or EMULATOR_API_KEY)');
  return { app: values.app, port, apiKey, host: values.host ?? '127.0.0.1', version: values.version };
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseArgs(process.argv.slice(2));
    if (!isEmulatorApp(options.app)) throw new Error(`--app must be one of ${EMULATOR_APPS.join(', ')}`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  const emulator = await startEmulator({ app: options.app, port: options.port, apiKey: options.apiKey, host: options.host, version: options.version });
  process.stdout.write(`${emulator.appName} emulator ${emulator.version} listening on ${emulator.baseUrl}${emulator.apiBase} (control: ${emulator.baseUrl}/__emulator/)\n`);
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  void main();
}
