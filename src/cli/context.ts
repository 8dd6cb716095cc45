import type { Command } from 'commander';
import { createArrgoClient, type ArrgoClient } from '../client';
import { CliError } from './errors';
import { readProfile } from './profile';

/** How output is written: tables and text for people, JSON for scripts. */
export type OutputFormat = 'table' | 'json';

/** What every command runs with: the API client and where its output goes. */
export interface CliContext {
  client: ArrgoClient;
  /** The arrgo URL the client talks to (without /api/v1). */
  url: string;
  output: OutputFormat;
  /** Non-interactive: confirmations are answered yes. */
  yes: boolean;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** The global options, as declared in program.ts. */
export interface GlobalOptions {
  url?: string;
  apiKey?: string;
  output?: OutputFormat;
  yes?: boolean;
}

/**
 * The context of a running command. The URL and the API key come, each on its own, from the
 * global options, else the environment (ARRGO_URL, ARRGO_API_KEY), else the profile written by
 * `arrgo login`.
 */
export function cliContext(command: Command, io: Pick<CliContext, 'stdout' | 'stderr' | 'stdin' | 'env'> = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }): CliContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const given = { url: options.url ?? io.env.ARRGO_URL, apiKey: options.apiKey ?? io.env.ARRGO_API_KEY };
  const profile = given.url && given.apiKey ? null : readProfile(io.env);
  const url = trimUrl(given.url ?? profile?.url ?? '');
  // The profile's key goes only to the profile's arrgo, never to another URL.
  const apiKey = given.apiKey ?? (profile && trimUrl(profile.url) === url ? profile.apiKey : undefined);
  if (!url) throw new CliError('No arrgo URL: set ARRGO_URL (for example http://localhost:7979), pass --url, or run `arrgo login`');
  if (!apiKey) throw new CliError('No API key: set ARRGO_API_KEY, pass --api-key, or run `arrgo login`');
  return { client: createArrgoClient({ baseUrl: url, apiKey }), url, output: options.output ?? 'table', yes: options.yes ?? false, ...io };
}

function trimUrl(url: string): string {
  return url.replace(/\/+$/, '');
}
