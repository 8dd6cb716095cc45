import { Option, type Command } from 'commander';
import { unwrap } from '../../client';
import { examples, readAll, resolveDatabase, withContext } from '../command-kit';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import { emit, printTable } from '../output';

/** `arrgo evaluate`: parse release titles and match them against a database's custom formats. */
export function registerEvaluateCommand(program: Command): void {
  examples(
    program
      .command('evaluate')
      .description('Parse release titles and evaluate them against the custom formats of a database (titles from arguments, or one a line on stdin)')
      .argument('[titles...]', 'release titles (none: read stdin)')
      .option('--database <database>', 'the database whose custom formats are matched (id or name); without it titles are only parsed')
      .addOption(new Option('--type <type>', 'what the titles are').choices(['movie', 'series']).default('movie'))
      .option('--profile <name>', "a quality profile of the database: adds each title's score in it")
      .action(
        withContext<{ database?: string; type: 'movie' | 'series'; profile?: string }>(async (ctx, [args], options) => {
          let titles = (args as string[]).map((t) => t.trim()).filter(Boolean);
          if (titles.length === 0) {
            if (ctx.stdin.isTTY) throw new CliError('Give release titles as arguments, or pipe them one a line on stdin', EXIT.usage);
            titles = (await readAll(ctx.stdin)).split(/\r?\n/).map((t) => t.trim()).filter(Boolean);
          }
          if (titles.length === 0) throw new CliError('No release titles: stdin was empty', EXIT.usage);
          const databaseId = options.database ? (await resolveDatabase(ctx.client, options.database)).id : undefined;
          const result = await unwrap(
            ctx.client.POST('/api/v1/entity-testing/evaluate', {
              body: { ...(databaseId ? { databaseId } : {}), ...(options.profile ? { profileName: options.profile } : {}), releases: titles.map((title, index) => ({ id: index + 1, title, type: options.type })) },
            }),
          );
          emit(ctx, result, () =>
            printTable(
              ctx,
              ['title', 'parsed', 'custom formats', ...(options.profile ? ['score'] : [])],
              result.evaluations.map((e) => [
                e.title,
                e.parsed ? [e.parsed.title, e.parsed.year, e.parsed.resolution ? `${e.parsed.resolution}p` : null, e.parsed.source, e.parsed.releaseGroup ? `-${e.parsed.releaseGroup}` : null].filter((part) => part !== null && part !== '').join(' ') : '(not parsed)',
                Object.entries(e.cfMatches).filter(([, matched]) => matched).map(([id]) => result.customFormats[id] ?? id).join(', '),
                ...(options.profile ? [e.score ? `${e.score.score}${e.score.meetsMinimum ? '' : ' (below minimum)'}` : ''] : []),
              ]),
            ),
          );
        }),
      ),
    'arrgo evaluate --database sample "Some.Movie.2024.1080p.BluRay.x264-GROUP"',
    'cat titles.txt | arrgo evaluate --database sample --type series --profile "Series 1080p" -o json',
  );
}
