import fs from 'node:fs';
import type { Command } from 'commander';
import { unwrap, type components } from '../../client';
import { examples, readAll, resolveDatabase, withContext } from '../command-kit';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import { emit, printJson, printLine } from '../output';

type PortableEntityType = components['schemas']['PortableEntityType'];

/** `arrgo pcd export|import`: one entity as portable JSON, out of a database and into a user layer. */
export function registerPcdCommands(program: Command): void {
  const pcd = program.command('pcd').description('Portable entities (custom formats, quality profiles, ...) as JSON, between databases');
  examples(pcd, 'arrgo pcd export --database sample --type custom_format --name "HDR10+" > hdr.json', 'arrgo pcd import --database mine hdr.json');

  examples(
    pcd
      .command('export')
      .description('One entity of the resolved state as portable JSON (on stdout, or --file); always JSON')
      .requiredOption('--database <database>', 'id or name')
      .requiredOption('--type <entityType>', 'portable entity type: custom_format, quality_profile, regular_expression, delay_profile, movie_app_naming, ... (the API lists them when one is wrong)')
      .requiredOption('--name <name>', "the entity's name")
      .option('--file <path>', 'write it to this file instead of stdout')
      .action(
        withContext<{ database: string; type: PortableEntityType; name: string; file?: string }>(async (ctx, _args, options) => {
          const { id: databaseId } = await resolveDatabase(ctx.client, options.database);
          const entity = await unwrap(ctx.client.GET('/api/v1/pcd/export', { params: { query: { databaseId, entityType: options.type, name: options.name } } }));
          if (!options.file) return printJson(ctx, entity);
          fs.writeFileSync(options.file, `${JSON.stringify(entity, null, 2)}\n`);
          emit(ctx, { written: options.file, entityType: entity.entityType }, () => printLine(ctx, `Wrote ${options.type} "${options.name}" to ${options.file}.`));
        }),
      ),
    'arrgo pcd export --database sample --type quality_profile --name "Movies 1080p" --file movies-1080p.json',
  );

  examples(
    pcd
      .command('import')
      .description("Create an entity from portable JSON (an export) in a database's user layer (never its repository)")
      .argument('[file]', 'the JSON file (default: stdin)')
      .requiredOption('--database <database>', 'id or name')
      .action(
        withContext<{ database: string }>(async (ctx, [file], options) => {
          const text = file ? readFile(String(file)) : await readAll(ctx.stdin);
          let entity: components['schemas']['PortableEntity'];
          try {
            entity = JSON.parse(text) as components['schemas']['PortableEntity'];
          } catch {
            throw new CliError(`${file ? String(file) : 'stdin'} is not JSON (expected what \`arrgo pcd export\` writes)`, EXIT.usage);
          }
          if (!entity || typeof entity !== 'object' || typeof entity.entityType !== 'string' || typeof entity.data !== 'object') {
            throw new CliError(`${file ? String(file) : 'stdin'} is not a portable entity (expected entityType and data, as \`arrgo pcd export\` writes)`, EXIT.usage);
          }
          const { id: databaseId, name: databaseName } = await resolveDatabase(ctx.client, options.database);
          const answer = await unwrap(
            ctx.client.POST('/api/v1/pcd/import', { body: { databaseId, layer: 'user', entityType: entity.entityType, data: entity.data, ...(entity.migration !== undefined ? { migration: entity.migration } : {}) } }),
          );
          emit(ctx, answer, () => {
            printLine(ctx, `Imported ${entity.entityType} "${String(entity.data.name ?? '')}" into the user layer of ${databaseName}.`);
            for (const warning of answer.warnings ?? []) printLine(ctx, `Warning: ${JSON.stringify(warning)}`);
          });
        }),
      ),
    'arrgo pcd import --database mine hdr.json',
    'arrgo pcd export --database a --type custom_format --name x | arrgo pcd import --database b',
  );
}

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, EXIT.usage);
  }
}
