import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import pc from 'picocolors';
import { unwrap } from '../../client';
import { cliContext, type CliContext } from '../context';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import { applyChanges } from './apply';
import { exportFleet, exportFleetJson } from './export';
import { FleetFileError, loadFleet, problemText, type Fleet, type FleetProblem } from './load';
import { planFleet, readSecret, secretsOf, type Change, type FleetConfiguration } from './plan';

interface FileOptions {
  file: string;
  allowInlineSecrets?: boolean;
}

/** The fleet-file commands: validate, plan, apply, export (docs/cli.md, "The fleet file"). */
export function registerFleetCommands(program: Command): void {
  program
    .command('validate')
    .description('Check a fleet file and its includes against the schema: every problem with its file, line and column (no request to arrgo)')
    .requiredOption('-f, --file <path>', 'the fleet file (arrgo.yaml)')
    .option('--allow-inline-secrets', 'accept secrets written inline (with a warning)')
    .addHelpText('after', '\nExample:\n  arrgo validate -f arrgo.yaml')
    .action(async (options: FileOptions, command: Command) => {
      const output = command.optsWithGlobals<{ output?: string }>().output ?? 'table';
      const warnings: FleetProblem[] = [];
      try {
        const fleet = await loadFleet(options.file, { cwd: process.cwd(), allowInlineSecrets: options.allowInlineSecrets, warnings });
        if (output === 'json') process.stdout.write(`${JSON.stringify({ valid: true, problems: [], warnings, counts: counts(fleet) })}\n`);
        else {
          for (const w of warnings) process.stderr.write(`warning: ${problemText(w)}\n`);
          process.stdout.write(`${options.file} is valid: ${describeCounts(fleet)}\n`);
        }
      } catch (error) {
        if (!(error instanceof FleetFileError)) throw error;
        if (output === 'json') process.stdout.write(`${JSON.stringify({ valid: false, problems: error.problems, warnings })}\n`);
        else process.stderr.write(`${error.message}\n`);
        process.exitCode = EXIT.error;
      }
    });

  program
    .command('plan')
    .description("Show what applying a fleet file would change in arrgo's configuration (never in the apps). Exit 0: no changes; 2: changes; 1: errors")
    .requiredOption('-f, --file <path>', 'the fleet file (arrgo.yaml)')
    .option('--prune', 'also plan deleting instances, databases, reference-guide sources and channels the file does not name')
    .option('--allow-inline-secrets', 'accept secrets written inline (with a warning)')
    .addHelpText('after', '\nExamples:\n  arrgo plan -f arrgo.yaml\n  arrgo plan -f arrgo.yaml --prune -o json')
    .action(async (options: FileOptions & { prune?: boolean }, command: Command) => {
      const ctx = cliContext(command);
      const { changes } = await planned(ctx, options);
      printChanges(ctx, changes);
      process.exitCode = changes.length ? EXIT.changes : EXIT.ok;
    });

  program
    .command('apply')
    .description("Make arrgo's configuration what the fleet file says (idempotent: a second apply changes nothing). Deletions (--prune) ask first, or need --yes")
    .requiredOption('-f, --file <path>', 'the fleet file (arrgo.yaml)')
    .option('--prune', 'also delete instances, databases, reference-guide sources and channels the file does not name')
    .option('--allow-inline-secrets', 'accept secrets written inline (with a warning)')
    .addHelpText('after', '\nExamples:\n  arrgo apply -f arrgo.yaml\n  arrgo apply -f arrgo.yaml --prune --yes')
    .action(async (options: FileOptions & { prune?: boolean }, command: Command) => {
      const ctx = cliContext(command);
      const { changes, current } = await planned(ctx, options);
      const deletions = changes.filter((c) => c.action === 'delete' && c.kind !== 'syncConfig');
      if (deletions.length && !ctx.yes) await confirmDeletions(ctx, deletions);
      const applied: Change[] = [];
      await applyChanges(ctx.client, current, changes, ctx.env, (change) => {
        applied.push(change);
        if (ctx.output === 'table') ctx.stdout.write(`${symbol(change)} ${change.kind} ${change.name}: ${pastTense(change.action)}\n`);
      });
      if (ctx.output === 'json') ctx.stdout.write(`${JSON.stringify({ applied: applied.map(publicChange) })}\n`);
      else ctx.stdout.write(applied.length ? `Applied ${summary(applied)}.\n` : 'No changes: arrgo already matches the file.\n');
    });

  program
    .command('export')
    .description("Write arrgo's current configuration as a fleet file, secrets as !env references (ARRGO_INSTANCE_<NAME>_API_KEY, ...); -o json writes the same content as JSON")
    .option('-f, --file <path>', 'write to this file instead of standard output')
    .addHelpText('after', '\nExamples:\n  arrgo export > arrgo.yaml\n  arrgo export -f arrgo.yaml && arrgo plan -f arrgo.yaml')
    .action(async (options: { file?: string }, command: Command) => {
      const ctx = cliContext(command);
      const current = await readConfiguration(ctx);
      const text = ctx.output === 'json' ? `${exportFleetJson(current)}\n` : exportFleet(current, `${ctx.url}/api/v1/fleet/schema`);
      if (options.file) {
        const { writeFile } = await import('node:fs/promises');
        await writeFile(options.file, text, { mode: 0o644 });
      } else ctx.stdout.write(text);
    });

  program
    .command('fleet-schema')
    .description('Print the JSON Schema of the fleet file (the same document GET /api/v1/fleet/schema serves)')
    .addHelpText('after', '\nExample:\n  arrgo fleet-schema > arrgo-fleet.schema.json')
    .action(async () => {
      // The schema generator (zod-to-openapi) is loaded only here: every other command starts without it.
      const { fleetJsonSchema } = await import('./json-schema');
      process.stdout.write(`${JSON.stringify(fleetJsonSchema(), null, 2)}\n`);
    });
}

async function readConfiguration(ctx: CliContext): Promise<FleetConfiguration> {
  return unwrap(ctx.client.GET('/api/v1/fleet/configuration'));
}

async function planned(ctx: CliContext, options: FileOptions & { prune?: boolean }): Promise<{ fleet: Fleet; current: FleetConfiguration; changes: Change[] }> {
  const warnings: FleetProblem[] = [];
  // The read needs nothing from the file: it is in flight while the file is parsed. A problem in the
  // file is still reported first (the read's own failure then goes unobserved).
  const reading = readConfiguration(ctx);
  reading.catch(() => undefined);
  let fleet: Fleet;
  try {
    fleet = await loadFleet(options.file, { cwd: process.cwd(), allowInlineSecrets: options.allowInlineSecrets, warnings });
  } catch (error) {
    if (error instanceof FleetFileError) throw new CliError(`the fleet file has problems:\n${error.message}`);
    throw error;
  }
  for (const w of warnings) ctx.stderr.write(`warning: ${problemText(w)}\n`);
  const current = await reading;
  const changes = planFleet(fleet, current, { prune: options.prune ?? false });
  // A secret the changes would send must be readable now, not half-way through an apply.
  for (const secret of secretsOf(changes)) await readSecret(secret, ctx.env);
  return { fleet, current, changes };
}

async function confirmDeletions(ctx: CliContext, deletions: Change[]): Promise<void> {
  const list = deletions.map((d) => `${d.kind} ${d.name}`).join(', ');
  if (!ctx.stdin.isTTY) throw new CliError(`Refusing to delete ${list} without confirmation: pass --yes (standard input is not a terminal)`);
  const prompt = createInterface({ input: ctx.stdin, output: ctx.stderr });
  const answer = await prompt.question(`Delete ${list} from arrgo? [y/N] `);
  prompt.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('Nothing applied: the deletions were not confirmed');
}

function counts(fleet: Fleet) {
  return { instances: fleet.instances.length, databases: fleet.databases.length, refGuideSources: fleet.refGuideSources.length, channels: fleet.channels.length, settings: Object.keys(fleet.settings).length };
}

function describeCounts(fleet: Fleet): string {
  return Object.entries(counts(fleet))
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
}

/** A change as printed or written as JSON: what and which fields (secrets already as references). */
function publicChange(change: Change) {
  return { action: change.action, kind: change.kind, name: change.name, fields: change.fields };
}

function symbol(change: Change): string {
  return change.action === 'create' ? pc.green('+') : change.action === 'delete' ? pc.red('-') : pc.yellow('~');
}

function pastTense(action: Change['action']): string {
  return action === 'create' ? 'created' : action === 'delete' ? 'deleted' : 'updated';
}

function summary(changes: Change[]): string {
  const n = (action: Change['action']) => changes.filter((c) => c.action === action).length;
  return `${n('create')} created, ${n('update')} updated, ${n('delete')} deleted`;
}

function show(value: unknown): string {
  return value === null || value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value);
}

function printChanges(ctx: CliContext, changes: Change[]): void {
  if (ctx.output === 'json') {
    const n = (action: Change['action']) => changes.filter((c) => c.action === action).length;
    ctx.stdout.write(`${JSON.stringify({ changes: changes.map(publicChange), summary: { create: n('create'), update: n('update'), delete: n('delete') } })}\n`);
    return;
  }
  if (!changes.length) return void ctx.stdout.write('No changes: arrgo matches the file.\n');
  // One write: a plan over a whole fleet is hundreds of lines.
  const lines: string[] = [];
  for (const change of changes) {
    lines.push(`${symbol(change)} ${change.kind} ${change.name}`);
    for (const field of change.fields) {
      if (change.action === 'create') lines.push(`    ${field.field}: ${show(field.to)}`);
      else lines.push(`    ${field.field}: ${pc.red(show(field.from))} -> ${pc.green(show(field.to))}`);
    }
  }
  const n = (action: Change['action']) => changes.filter((c) => c.action === action).length;
  lines.push(`Plan: ${n('create')} to create, ${n('update')} to update, ${n('delete')} to delete.`);
  ctx.stdout.write(`${lines.join('\n')}\n`);
}
