#!/usr/bin/env node
import { CommanderError } from 'commander';
import { CliError, failureText } from './errors';
import { EXIT } from './exit-codes';
import { buildProgram } from './program';

/** Runs the command line; resolves with the exit code (a failure is one line on stderr, never a stack trace). */
export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return process.exitCode === undefined ? EXIT.ok : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    process.stderr.write(`arrgo: ${failureText(error)}\n`);
    return error instanceof CliError ? error.exitCode : EXIT.error;
  }
}

if (require.main === module) {
  // A reader that stops early (`arrgo ... | head`) closes the pipe: end quietly, as other tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? EXIT.ok : EXIT.error));
  // Exit once stdout is flushed: a pipe is written asynchronously, and exiting at once cuts a long output.
  void runCli(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
}
