import type { Command } from 'commander';
import { unwrap, type operations } from '../../client';
import { examples, positiveInt, resolveDatabase, resolveInstance, withContext } from '../command-kit';
import { emit, printLine, printTable, when } from '../output';

type HistoryQuery = NonNullable<operations['listSyncHistory']['parameters']['query']>;
type TimelineQuery = NonNullable<operations['getTimeline']['parameters']['query']>;

/** `arrgo history` (sync runs) and `arrgo timeline` (sync runs, rollouts, snapshots and rollbacks in one feed). */
export function registerHistoryCommands(program: Command): void {
  examples(
    program
      .command('history')
      .description('Sync runs, newest first')
      .option('--instance <instance>', 'only this instance (id or name)')
      .option('--status <status>', 'running, success, partial or failed')
      .option('--limit <n>', 'how many runs (1 to 200)', '20')
      .action(
        withContext<{ instance?: string; status?: string; limit: string }>(async (ctx, _args, options) => {
          const query: HistoryQuery = { pageSize: positiveInt('--limit', options.limit) };
          if (options.instance) query.instanceId = (await resolveInstance(ctx.client, options.instance)).id;
          if (options.status) query.status = options.status as HistoryQuery['status'];
          const page = await unwrap(ctx.client.GET('/api/v1/sync-history', { params: { query } }));
          emit(ctx, page.items, (items) => {
            printTable(
              ctx,
              ['run', 'instance', 'trigger', 'status', 'changes', 'failures', 'verified', 'started', 'finished'],
              items.map((r) => [r.id, r.instanceName, r.trigger, r.status, r.entityChangeCount, r.failureCount, r.verification?.status, when(r.startedAt), when(r.finishedAt)]),
            );
            if (page.totalRecords > items.length) printLine(ctx, `${items.length} of ${page.totalRecords} run(s); --limit shows more.`);
          });
        }),
      ),
    'arrgo history',
    'arrgo history --instance radarr-main --status failed -o json',
  );

  examples(
    program
      .command('timeline')
      .description('What happened, newest first: sync runs, canary rollouts, snapshots and rollbacks')
      .option('--source <sources>', 'comma-separated: sync, canary, snapshot, rollback')
      .option('--instance <instance>', 'only this instance (id or name)')
      .option('--database <database>', 'only this database (id or name)')
      .option('--search <text>', 'free text')
      .option('--limit <n>', 'how many items (1 to 200)', '20')
      .action(
        withContext<{ source?: string; instance?: string; database?: string; search?: string; limit: string }>(async (ctx, _args, options) => {
          const query: TimelineQuery = { pageSize: positiveInt('--limit', options.limit) };
          if (options.source) query.source = options.source;
          if (options.instance) query.instanceId = (await resolveInstance(ctx.client, options.instance)).id;
          if (options.database) query.databaseId = (await resolveDatabase(ctx.client, options.database)).id;
          if (options.search) query.q = options.search;
          const page = await unwrap(ctx.client.GET('/api/v1/timeline', { params: { query } }));
          emit(ctx, page, () =>
            printTable(
              ctx,
              ['when', 'what', 'status', 'scope', 'reason'],
              page.items.map((item) => [when(item.occurredAt), `${item.id} ${item.subtype}`, item.status, item.scope.label, item.reason]),
            ),
          );
        }),
      ),
    'arrgo timeline',
    'arrgo timeline --source canary,rollback --limit 50',
  );
}
