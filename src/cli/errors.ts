import { ApiError } from '../client';
import { EXIT, type ExitCode } from './exit-codes';

/** A failure the command reports in one line (never a stack trace), with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.error,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** What a failed command prints: the API's `{error}` text, a CliError's message, or a plain sentence. */
export function failureText(error: unknown): string {
  if (error instanceof CliError) return error.message;
  if (error instanceof ApiError) return `${error.message} (HTTP ${error.status})`;
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return 'arrgo did not answer at the configured URL (is it running? see ARRGO_URL or `arrgo login`)';
  return 'The command failed unexpectedly';
}
