import type { Command } from 'commander';
import { unwrap, type components } from '../../client';
import { examples, resolveDatabase, sleep, withContext } from '../command-kit';
import type { CliContext } from '../context';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import { emit, printLine, printTable, when } from '../output';

type Database = components['schemas']['Database'];

/** How long `db link` waits for the first pull's cache, at most. */
const LINK_WAIT_MS = 10 * 60_000;

/** `arrgo db list|link|pull|status`: the linked PCD databases. */
export function registerDatabaseCommands(program: Command): void {
  const db = program.command('db').description('The PCD databases arrgo syncs from (git repositories or local directories)');
  examples(db, 'arrgo db list', 'arrgo db link dictionarry --git https://github.com/Dictionarry-Hub/database --branch stable');

  examples(
    db
      .command('list')
      .description('List the linked databases with their commit and cache state')
      .action(
        withContext(async (ctx) => {
          const databases = await unwrap(ctx.client.GET('/api/v1/databases'));
          emit(ctx, databases, () =>
            printTable(
              ctx,
              ['id', 'name', 'source', 'commit', 'cache', 'entities', 'last pulled'],
              databases.map((d) => [d.id, d.name, sourceText(d), d.commit?.slice(0, 12), d.cache.status, d.cache.stats?.entities, when(d.lastPulledAt)]),
            ),
          );
        }),
      ),
    'arrgo db list',
  );

  examples(
    db
      .command('link')
      .description('Link a database from a git URL or a local directory; waits until its first pull is ready (unless --no-wait)')
      .argument('<name>', 'a name of your choice, unique')
      .option('--git <url>', 'the git repository URL')
      .option('--branch <branch>', 'the git branch (default: the repository default)')
      .option('--path <dir>', 'a local directory (as the arrgo server sees it)')
      .option('--no-wait', 'answer at once, without waiting for the first pull')
      .action(
        withContext<{ git?: string; branch?: string; path?: string; wait: boolean }>(async (ctx, [name], options) => {
          if (Boolean(options.git) === Boolean(options.path)) throw new CliError('Give exactly one source: --git <url> or --path <dir>', EXIT.usage);
          const source: components['schemas']['DatabaseSource'] = options.git ? { kind: 'git', url: options.git, ...(options.branch ? { branch: options.branch } : {}) } : { kind: 'local', path: options.path! };
          let database = await unwrap(ctx.client.POST('/api/v1/databases', { body: { name: String(name), source } }));
          if (options.wait) database = await untilCacheSettles(ctx, database.id);
          emit(ctx, database, () => printDatabase(ctx, database));
          if (options.wait && database.cache.status === 'failed') throw new CliError(`The database was linked but its pull failed: ${database.cache.message ?? database.cache.reason ?? 'see arrgo db status'}`);
        }),
      ),
    'arrgo db link sample --path /data/pcd/sample',
    'arrgo db link dictionarry --git https://github.com/Dictionarry-Hub/database --branch stable',
  );

  examples(
    db
      .command('pull')
      .description('Pull a database now (fetch, import, rebuild the cache) and wait until it is done')
      .argument('<database>', 'id or name')
      .action(
        withContext(async (ctx, [ref]) => {
          const { id } = await resolveDatabase(ctx.client, ref);
          let pull = await unwrap(ctx.client.POST('/api/v1/databases/{id}/pull', { params: { path: { id }, query: { wait: true, waitSeconds: 120 } } }));
          while (pull.status === 'started') {
            await sleep(1000);
            const state = await unwrap(ctx.client.GET('/api/v1/databases/{id}/pull', { params: { path: { id } } }));
            if (!state.running) pull = { ...pull, status: state.phase === 'failed' ? 'failed' : 'ready', database: await unwrap(ctx.client.GET('/api/v1/databases/{id}', { params: { path: { id } } })) };
          }
          emit(ctx, pull, () => {
            printLine(ctx, `Pull ${pull.status}${pull.reason ? `: ${pull.reason}` : ''}.`);
            printDatabase(ctx, pull.database);
          });
          if (pull.status === 'failed') throw new CliError(`The pull failed${pull.reason ? `: ${pull.reason}` : ''}`);
        }),
      ),
    'arrgo db pull dictionarry',
  );

  examples(
    db
      .command('status')
      .description("A database's source, commit, cache and its pull (running or last)")
      .argument('<database>', 'id or name')
      .action(
        withContext(async (ctx, [ref]) => {
          const { id } = await resolveDatabase(ctx.client, ref);
          const [database, pull] = await Promise.all([
            unwrap(ctx.client.GET('/api/v1/databases/{id}', { params: { path: { id } } })),
            unwrap(ctx.client.GET('/api/v1/databases/{id}/pull', { params: { path: { id } } })),
          ]);
          emit(ctx, { database, pull }, () => {
            printDatabase(ctx, database);
            printLine(ctx, `Pull: ${pull.running ? `running (${pull.phase ?? 'starting'})` : (pull.phase ?? 'none yet')}${pull.closedAt ? `, finished ${when(pull.closedAt)}` : ''}${pull.inserted !== null ? `, ${pull.inserted} op(s) imported, ${pull.removed ?? 0} removed` : ''}`);
          });
        }),
      ),
    'arrgo db status dictionarry',
  );
}

async function untilCacheSettles(ctx: CliContext, id: number): Promise<Database> {
  const deadline = Date.now() + LINK_WAIT_MS;
  for (;;) {
    const database = await unwrap(ctx.client.GET('/api/v1/databases/{id}', { params: { path: { id } } }));
    if (!['pending', 'building'].includes(database.cache.status) || Date.now() > deadline) return database;
    await sleep(500);
  }
}

function sourceText(d: Database): string {
  return d.source.kind === 'git' ? `${d.source.url ?? ''}${d.source.branch ? `#${d.source.branch}` : ''}` : (d.source.path ?? '');
}

function printDatabase(ctx: CliContext, d: Database): void {
  printLine(ctx, `Database ${d.id} (${d.name}): ${sourceText(d)}`);
  printLine(ctx, `  commit ${d.commit ?? 'none'}, cache ${d.cache.status}${d.cache.message ? ` (${d.cache.message})` : ''}${d.cache.stats?.entities !== undefined ? `, ${d.cache.stats.entities} entities` : ''}`);
  if (d.manifest) printLine(ctx, `  ${d.manifest.name} ${d.manifest.version}${d.manifest.arrTypes.length ? ` for ${d.manifest.arrTypes.join(', ')}` : ''}`);
}
