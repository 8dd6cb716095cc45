import type { Command } from 'commander';
import { unwrap, type components } from '../../client';
import { examples, listInstances, resolveInstance, withContext } from '../command-kit';
import type { CliContext } from '../context';
import { unifiedDiff } from '../diff';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import { colorsOf, emit, printLine, printTable, when } from '../output';

type DriftDetail = components['schemas']['DriftDetail'];

/** Statuses that say the check could not read the app. */
const UNREADABLE = new Set<DriftDetail['status']>(['unreachable', 'unauthorized', 'error']);

/** `arrgo drift [check]`: the stored drift results, or a check now. */
export function registerDriftCommands(program: Command): void {
  const drift = program
    .command('drift')
    .description('Drift: where the apps differ from what arrgo would sync (the stored results; `drift check` checks now)')
    .action(
      withContext(async (ctx) => {
        const results = await unwrap(ctx.client.GET('/api/v1/drift'));
        emit(ctx, results, () => printDriftTable(ctx, results));
      }),
    );
  examples(drift, 'arrgo drift', 'arrgo drift check radarr-main');

  examples(
    drift
      .command('check')
      .description('Check instances now (all of them without an argument). Exit 0 in sync, 2 drifted, 1 when an app could not be read')
      .argument('[instance...]', 'ids or names (default: every enabled instance)')
      .action(
        withContext(async (ctx, [refs]) => {
          const list = refs as string[];
          const targets = list.length > 0 ? await Promise.all(list.map((ref) => resolveInstance(ctx.client, ref))) : (await listInstances(ctx.client)).filter((i) => i.enabled);
          const results: DriftDetail[] = [];
          for (const target of targets) results.push(await unwrap(ctx.client.POST('/api/v1/drift/{instanceId}/check', { params: { path: { instanceId: target.id } } })));
          emit(ctx, results, () => {
            printDriftTable(ctx, results);
            for (const result of results.filter((r) => r.status === 'drifted')) {
              printLine(ctx);
              ctx.stdout.write(unifiedDiff([...result.drift, ...result.missing, ...result.unmanaged], { current: `${result.instanceName} (live)`, desired: `${result.instanceName} (desired)` }, colorsOf(ctx)));
            }
          });
          const unreadable = results.filter((r) => UNREADABLE.has(r.status));
          if (unreadable.length > 0) throw new CliError(`Could not check ${unreadable.map((r) => `${r.instanceName} (${r.status}${r.reason ? `: ${r.reason}` : ''})`).join(', ')}`);
          if (results.some((r) => r.status === 'drifted')) process.exitCode = EXIT.changes;
        }),
      ),
    'arrgo drift check',
    'arrgo drift check radarr-main sonarr-main -o json',
  );
}

function printDriftTable(ctx: CliContext, results: DriftDetail[]): void {
  printTable(
    ctx,
    ['id', 'instance', 'app', 'status', 'drifted', 'missing', 'unmanaged', 'checked'],
    results.map((r) => [r.instanceId, r.instanceName, r.arrType, r.status, r.counts.drifted, r.counts.missing, r.counts.unmanaged, when(r.checkedAt)]),
  );
}
