import { Option, type Command } from 'commander';
import { unwrap, type components } from '../../client';
import { confirm, examples, listInstances, resolveInstance, withContext } from '../command-kit';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import { emit, printLine, printTable, when } from '../output';

type Instance = components['schemas']['Instance'];
type TestResult = components['schemas']['InstanceTestResult'];

const ARR_TYPES: components['schemas']['ArrType'][] = ['movie_app', 'series_app', 'music_app'];

/** `arrgo instances list|add|test|rm`. */
export function registerInstanceCommands(program: Command): void {
  const instances = program.command('instances').description('The Radarr, Sonarr and Lidarr instances arrgo manages');
  examples(instances, 'arrgo instances list', 'arrgo instances add radarr-4k --type movie_app --base-url http://radarr:7878 --app-key-env RADARR_KEY');

  examples(
    instances
      .command('list')
      .description('List the instances (API keys are never shown)')
      .action(
        withContext(async (ctx) => {
          const items = await listInstances(ctx.client);
          emit(ctx, items, () => printInstances(ctx, items));
        }),
      ),
    'arrgo instances list',
    'arrgo instances list -o json | jq -r ".[].name"',
  );

  examples(
    instances
      .command('add')
      .description('Register an instance; arrgo tests the connection at once')
      .argument('<name>', 'a name of your choice, unique')
      .addOption(new Option('--type <arrType>', 'the app family').choices(ARR_TYPES).makeOptionMandatory())
      .requiredOption('--base-url <url>', "the app's URL, as arrgo reaches it")
      .option('--app-key <key>', "the app's API key (Settings > General); prefer --app-key-env, which keeps it out of your shell history")
      .option('--app-key-env <name>', "the name of an environment variable holding the app's API key")
      .option('--tag <tag...>', 'tags')
      .option('--disabled', 'register it disabled (no sync, no drift checks)')
      .action(
        withContext<{ type: components['schemas']['ArrType']; baseUrl: string; appKey?: string; appKeyEnv?: string; tag?: string[]; disabled?: boolean }>(async (ctx, [name], options) => {
          const apiKey = options.appKey ?? (options.appKeyEnv ? ctx.env[options.appKeyEnv] : undefined);
          if (!apiKey) throw new CliError(options.appKeyEnv ? `The environment variable ${options.appKeyEnv} is not set` : "Give the app's API key: --app-key-env <name> or --app-key <key>", EXIT.usage);
          const created = await unwrap(
            ctx.client.POST('/api/v1/instances', { body: { name: String(name), arrType: options.type, baseUrl: options.baseUrl, apiKey, tags: options.tag, enabled: !options.disabled } }),
          );
          emit(ctx, created, () => {
            printLine(ctx, `Added instance ${created.id} (${created.name}, ${created.arrType}).`);
            printTest(ctx, created.connectionTest);
          });
        }),
      ),
    'arrgo instances add radarr-main --type movie_app --base-url http://radarr:7878 --app-key-env RADARR_API_KEY',
  );

  examples(
    instances
      .command('test')
      .description("Test the connection to an instance (reads the app's system status); exit 1 when it is not reachable")
      .argument('<instance>', 'id or name')
      .action(
        withContext(async (ctx, [ref]) => {
          const instance = await resolveInstance(ctx.client, ref);
          const result = await unwrap(ctx.client.POST('/api/v1/instances/{id}/test', { params: { path: { id: instance.id } } }));
          emit(ctx, result, () => printTest(ctx, result));
          if (!result.reachable) throw new CliError(`${instance.name}: ${result.message ?? result.reason ?? 'not reachable'}`);
        }),
      ),
    'arrgo instances test radarr-main',
  );

  examples(
    instances
      .command('rm')
      .description('Remove an instance from arrgo (the app itself is not touched); asks first unless --yes')
      .argument('<instance>', 'id or name')
      .action(
        withContext(async (ctx, [ref]) => {
          const instance = await resolveInstance(ctx.client, ref);
          await confirm(ctx, `Remove instance ${instance.id} (${instance.name}) from arrgo?`);
          await unwrap(ctx.client.DELETE('/api/v1/instances/{id}', { params: { path: { id: instance.id } } }));
          emit(ctx, { removed: instance.id, name: instance.name }, () => printLine(ctx, `Removed instance ${instance.id} (${instance.name}).`));
        }),
      ),
    'arrgo instances rm radarr-old --yes',
  );
}

function printInstances(ctx: Parameters<typeof printTable>[0], items: Instance[]): void {
  printTable(
    ctx,
    ['id', 'name', 'app', 'url', 'enabled', 'verified', 'version', 'tags'],
    items.map((i) => [i.id, i.name, i.arrType, i.baseUrl, i.enabled ? 'yes' : 'no', `${i.verification.status}${i.verification.checkedAt ? ` ${when(i.verification.checkedAt)}` : ''}`, i.verification.version, i.tags.join(', ')]),
  );
}

function printTest(ctx: Parameters<typeof printLine>[0], result: TestResult): void {
  if (result.reachable) printLine(ctx, `Connection: reachable, ${result.appName ?? 'app'} ${result.version ?? ''}${result.matchesArrType === false ? ` (but it is ${result.detectedArrType ?? 'another app'})` : ''}`.trimEnd());
  else printLine(ctx, `Connection: not reachable (${result.reason ?? 'unknown'}): ${result.message ?? ''}${result.recoveryAction ? ` ${result.recoveryAction}` : ''}`.trimEnd());
}
