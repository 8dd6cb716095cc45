import type { Command, OptionValues } from 'commander';
import { unwrap, type ArrgoClient } from '../client';
import { cliContext, type CliContext } from './context';
import { CliError } from './errors';
import { EXIT } from './exit-codes';

/**
 * A command's action with its context: `run(ctx, args, options)`, where args are the command's
 * parsed arguments in order and options its own options.
 */
export function withContext<O extends OptionValues = OptionValues>(run: (ctx: CliContext, args: unknown[], options: O) => Promise<void>) {
  return async function (this: Command): Promise<void> {
    await run(cliContext(this), this.processedArgs, this.opts<O>());
  };
}

/** Adds the examples shown at the end of `--help`. */
export function examples(command: Command, ...lines: string[]): Command {
  return command.addHelpText('after', `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/**
 * Asks before a change: `--yes` answers yes; a terminal is asked; without a terminal the command
 * refuses (a script must say --yes).
 */
export async function confirm(ctx: CliContext, question: string): Promise<void> {
  if (ctx.yes) return;
  if (!ctx.stdin.isTTY || !ctx.stdout.isTTY) throw new CliError(`${question} Refused: not a terminal, so nobody can confirm; pass --yes to go ahead.`);
  ctx.stdout.write(`${question} [y/N] `);
  const answer = (await readLine(ctx.stdin)).trim().toLowerCase();
  if (answer !== 'y' && answer !== 'yes') throw new CliError('Cancelled: nothing was changed.');
}

function readLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (text.includes('\n')) done();
    };
    const done = () => {
      stream.off('data', onData);
      stream.off('end', done);
      stream.pause();
      resolve(text.split('\n')[0]);
    };
    stream.on('data', onData);
    stream.on('end', done);
    stream.resume();
  });
}

/** Everything on stdin (piped input), as text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** A positive integer argument or option, or a usage error that names it. */
export function positiveInt(name: string, value: unknown): number {
  const text = String(value);
  if (!/^[1-9]\d{0,9}$/.test(text)) throw new CliError(`${name} must be a positive whole number, not "${text}"`, EXIT.usage);
  return Number(text);
}

/** An instance by id or by name (exact). */
export async function resolveInstance(client: ArrgoClient, ref: unknown): Promise<{ id: number; name: string; arrType: string }> {
  const instances = await listInstances(client);
  const found = /^\d+$/.test(String(ref)) ? instances.find((i) => i.id === Number(ref)) : instances.find((i) => i.name === String(ref));
  if (!found) throw new CliError(`No instance named or numbered "${String(ref)}" (see \`arrgo instances list\`)`);
  return found;
}

/** Every instance (all pages). */
export async function listInstances(client: ArrgoClient) {
  const items = [];
  for (let page = 1; ; page += 1) {
    const answer = await unwrap(client.GET('/api/v1/instances', { params: { query: { page, pageSize: 200 } } }));
    items.push(...answer.items);
    if (!answer.hasNext) return items;
  }
}

/** A linked database by id or by name (exact). */
export async function resolveDatabase(client: ArrgoClient, ref: unknown): Promise<{ id: number; name: string }> {
  const databases = await unwrap(client.GET('/api/v1/databases'));
  const found = /^\d+$/.test(String(ref)) ? databases.find((d) => d.id === Number(ref)) : databases.find((d) => d.name === String(ref));
  if (!found) throw new CliError(`No database named or numbered "${String(ref)}" (see \`arrgo db list\`)`);
  return found;
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
