import { Command, Option } from 'commander';
import { registerCoreCommands } from './commands';
import { registerFleetCommands } from './fleet';
import { registerImportCommands } from './import';
import { APP_VERSION } from '../version';

/** The `arrgo` program: global options, then every command. */
export function buildProgram(): Command {
  const program = new Command('arrgo')
    .description('The arrgo command line: your *arr fleet from a terminal or a script, and the fleet file (arrgo.yaml) as code.')
    .option('--url <url>', 'arrgo URL (default: ARRGO_URL, or the profile written by `arrgo login`)')
    .option('--api-key <key>', 'API key (default: ARRGO_API_KEY, or the profile)')
    .addOption(new Option('-o, --output <format>', 'table for people, json for scripts').choices(['table', 'json']).default('table'))
    .option('-y, --yes', 'answer yes to confirmations (non-interactive use)', false)
    .version(APP_VERSION, '-V, --version', "print arrgo's version (the one the service reports in GET /health)")
    .showHelpAfterError()
    .exitOverride();
  registerCoreCommands(program);
  registerFleetCommands(program);
  registerImportCommands(program);
  return program;
}
