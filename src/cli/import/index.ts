import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { unwrap, type components } from '../../client';
import { examples, resolveDatabase, withContext } from '../command-kit';
import type { CliContext } from '../context';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import { fleetFileText, fleetOf } from '../fleet/export';
import { problemText, type FleetProblem } from '../fleet/load';
import { emit, printLine } from '../output';
import { importIntoDatabase, type GuideRef } from './apply';
import { arrTypeOf, fleetInstance, fleetSecret } from './fleet';
import type { ImportTool } from './read';

type GuideArrType = components['schemas']['RefGuideArrType'];

interface ImportOptions {
  database: string;
  guide?: string[];
  file?: string;
  dryRun?: boolean;
}

/** `arrgo import recyclarr|configarr <file>`: a fleet file for the instances, user ops for the guide's formats, profiles and scores (docs/cli.md, "Coming from Recyclarr or Configarr"). */
export function registerImportCommands(program: Command): void {
  const command = program.command('import').description("Move over from Recyclarr or Configarr: their instances become a fleet file, their guide formats, profiles and scores user ops in a database");
  examples(command, 'arrgo import recyclarr recyclarr.yml --database mine --file arrgo.yaml', 'arrgo import configarr config.yml --database mine --dry-run');
  for (const tool of ['recyclarr', 'configarr'] as const) {
    examples(
      command
        .command(tool)
        .description(`Read a ${tool === 'recyclarr' ? 'Recyclarr' : 'Configarr'} YAML file: write its instances as a fleet file and its custom formats, profiles and scores into a database's user layer; report what is not carried over, with its line`)
        .argument('<file>', `the ${tool} configuration`)
        .requiredOption('--database <database>', 'id or name of the linked database whose user layer receives the ops')
        .option('--guide <source...>', 'reference-guide sources (id or name) to take trash_ids from; default: the source of each app type')
        .option('-f, --file <path>', 'write the fleet file here (default: standard output)')
        .option('--dry-run', 'write nothing: show the fleet file and the ops that would be written')
        .action(withContext<ImportOptions>((ctx, [file], options) => runImport(ctx, tool, String(file), options))),
      `arrgo import ${tool} ${tool === 'recyclarr' ? 'recyclarr.yml' : 'config.yml'} --database mine --file arrgo.yaml`,
    );
  }
}

async function runImport(ctx: CliContext, tool: ImportTool, file: string, options: ImportOptions): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new CliError(`cannot read ${file}`, EXIT.usage);
  }
  // The reader (and with it the yaml package) is loaded only here: every other command starts without it.
  const { readToolConfig, ToolFileError } = await import('./read');
  let config;
  try {
    config = readToolConfig(text, tool, file);
  } catch (error) {
    if (error instanceof ToolFileError) throw new CliError(`${file} cannot be imported:\n${error.message}`);
    throw error;
  }
  if (!config.instances.length) throw new CliError(`${file} names no radarr, sonarr or lidarr instance`);
  const database = await resolveDatabase(ctx.client, options.database);
  const current = await unwrap(ctx.client.GET('/api/v1/fleet/configuration'));
  const guides = pickGuides(current.refGuideSources, options.guide, new Set(config.instances.map(arrTypeOf)));
  const outcome = await importIntoDatabase(ctx.client, config.instances, database.id, guides, options.dryRun ?? false, file);

  const notes: FleetProblem[] = [];
  const instances = config.instances.map((instance) => {
    const { apiKey, note } = fleetSecret(instance, config, file);
    if (note) notes.push(note);
    return fleetInstance(instance, apiKey, database.name, outcome.profiles.get(instance) ?? [], outcome.qualityDefinitions.get(instance));
  });
  const guideIds = new Set([...guides.values()].map((g) => g.id));
  const refGuideSources = current.refGuideSources.filter((s) => guideIds.has(s.id));
  const databaseIds = new Set([database.id, ...refGuideSources.flatMap((s) => s.databaseIds)]);
  const { databases, refGuideSources: guideEntries } = fleetOf({ ...current, databases: current.databases.filter((d) => databaseIds.has(d.id)), refGuideSources, instances: [], channels: [], syncConfigs: [] });
  const content = { version: 1, databases, refGuideSources: guideEntries, instances };
  const fleetText = fleetFileText(content, `${ctx.url}/api/v1/fleet/schema`, `arrgo fleet file, written by \`arrgo import ${tool}\` from ${file}.\nSecrets are !env references: set them before \`arrgo apply\`.`);
  if (options.file && !options.dryRun) await writeFile(options.file, fleetText, { mode: 0o644 });
  const notCarried = [...config.notCarried, ...outcome.notCarried].sort((a, b) => a.line - b.line || a.column - b.column);

  emit(ctx, { dryRun: options.dryRun ?? false, fleetFile: options.file && !options.dryRun ? options.file : null, fleet: content, created: outcome.created, updated: outcome.updated, skipped: outcome.skipped, profileEdits: outcome.profileEdits, notes, notCarried }, () => {
    const verb = options.dryRun ? 'would write' : 'wrote';
    if (!options.file || options.dryRun) ctx.stdout.write(fleetText);
    else printLine(ctx, `Wrote the fleet file ${options.file}: ${instances.length} instance${instances.length === 1 ? '' : 's'}.`);
    const ops = outcome.created.length + outcome.updated.length;
    printLine(ctx, `\nUser layer of ${database.name}: ${verb} ${ops} op${ops === 1 ? '' : 's'}${outcome.skipped.length ? `, ${outcome.skipped.length} kept as they are (the name exists)` : ''}.`);
    // Regular expressions come with their formats: counted, not listed.
    const expressions = outcome.created.filter((c) => c.entityType === 'regular_expression').length;
    for (const c of outcome.created.filter((c) => c.entityType !== 'regular_expression')) printLine(ctx, `  + ${c.entityType} ${c.name}`);
    if (expressions) printLine(ctx, `  + ${expressions} regular expression${expressions === 1 ? '' : 's'} of those custom formats`);
    for (const u of outcome.updated) printLine(ctx, `  ~ ${u.entityType} ${u.name}: the database had it; its conditions for this app family are now the guide's`);
    for (const s of outcome.skipped.filter((s) => s.entityType !== 'regular_expression')) printLine(ctx, `  = ${s.entityType} ${s.name}: ${s.reason}`);
    for (const edit of outcome.profileEdits) {
      const state = edit.changed === null ? 'would set ' : edit.changed ? 'set ' : 'already ';
      printLine(ctx, `  ~ quality_profile ${edit.profile}: ${state}${Object.keys(edit.scores).length} scores${Object.keys(edit.fields).length ? `, ${Object.keys(edit.fields).join(', ')}` : ''}${edit.reset ? ', other scores 0' : ''}`);
    }
    for (const note of notes) printLine(ctx, `note: ${problemText(note)}`);
    if (notCarried.length) printLine(ctx, `\nNot carried over (${notCarried.length}):`);
    for (const problem of notCarried) printLine(ctx, `  ${problemText(problem)}`);
    if (!options.dryRun) printLine(ctx, `\nNext: set the !env variables, \`arrgo apply -f ${options.file ?? 'arrgo.yaml'}\`, then \`arrgo sync preview <instance>\` for each instance.`);
  });
}

function pickGuides(sources: components['schemas']['FleetConfiguration']['refGuideSources'], wanted: string[] | undefined, arrTypes: Set<string>): Map<GuideArrType, GuideRef> {
  const guides = new Map<GuideArrType, GuideRef>();
  const chosen = wanted?.length
    ? wanted.map((ref) => {
        const found = /^\d+$/.test(ref) ? sources.find((s) => s.id === Number(ref)) : sources.find((s) => s.name === ref);
        if (!found) throw new CliError(`No reference-guide source named or numbered "${ref}"`);
        return found;
      })
    : sources.filter((s) => s.enabled && arrTypes.has(s.arrType));
  for (const source of chosen) if (!guides.has(source.arrType)) guides.set(source.arrType, { id: source.id, name: source.name });
  return guides;
}
