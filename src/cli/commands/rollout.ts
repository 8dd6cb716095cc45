import type { MultiBar, SingleBar } from 'cli-progress';
import { Option, type Command } from 'commander';
import { unwrap, type components } from '../../client';
import { confirm, examples, positiveInt, resolveInstance, sleep, withContext } from '../command-kit';
import type { CliContext } from '../context';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import { emit, printJson, printLine, printTable, when } from '../output';
import { SYNC_SECTIONS } from './sync';

type Rollout = components['schemas']['CanaryRollout'];
type RolloutStatus = Rollout['status'];

const FINAL: RolloutStatus[] = ['completed', 'aborted', 'failed'];
const WATCH_INTERVAL_MS = 1000;

/** `arrgo rollout start|status|proceed|abort|watch`: canary rollouts. */
export function registerRolloutCommands(program: Command): void {
  const rollout = program.command('rollout').description('Canary rollouts: sync one canary, check it, then roll the sync out to the other instances in batches');
  examples(rollout, 'arrgo rollout start --canary radarr-test --targets radarr-main radarr-4k --watch', 'arrgo rollout proceed 12 --yes && arrgo rollout watch 12');

  examples(
    rollout
      .command('start')
      .description('Start a rollout: the canary syncs, evidence is built for every target, then the rollout waits at the gate')
      .requiredOption('--canary <instance>', 'the canary instance (id or name)')
      .requiredOption('--targets <instance...>', 'the instances the sync rolls out to after the gate (ids or names)')
      .option('--section <section...>', `sections to sync (${SYNC_SECTIONS.join(', ')}; default: all but metadataProfiles, which Lidarr also gets)`)
      .addOption(new Option('--partial-policy <policy>', 'a canary that synced partly: wait at the gate, or abort').choices(['gate', 'abort']).default('gate'))
      .option('--batch-size <n>', 'targets synced at once after the gate (default 5)')
      .option('--allow-in-sync-canary', 'start even when the canary has nothing to change (the rollout then ends aborted)')
      .option('--watch', 'then watch it (as `arrgo rollout watch`)')
      .action(
        withContext<{ canary: string; targets: string[]; section?: string[]; partialPolicy: 'gate' | 'abort'; batchSize?: string; allowInSyncCanary?: boolean; watch?: boolean }>(async (ctx, _args, options) => {
          const canary = await resolveInstance(ctx.client, options.canary);
          const targets = await Promise.all(options.targets.map((ref) => resolveInstance(ctx.client, ref)));
          const arrType = canary.arrType as components['schemas']['ArrType'];
          const sections = (options.section ?? SYNC_SECTIONS.filter((s) => s !== 'metadataProfiles' || arrType === 'music_app')) as components['schemas']['SyncSection'][];
          const started = await unwrap(
            ctx.client.POST('/api/v1/canary/rollouts', {
              body: {
                arrType,
                canaryInstanceId: canary.id,
                targetInstanceIds: targets.map((t) => t.id),
                sections,
                partialPolicy: options.partialPolicy,
                ...(options.batchSize ? { batchSize: positiveInt('--batch-size', options.batchSize) } : {}),
                ...(options.allowInSyncCanary ? { allowInSyncCanary: true } : {}),
              },
            }),
          );
          if (options.watch) return watch(ctx, started.id);
          emit(ctx, started, () => printLine(ctx, `Started rollout ${started.id}: canary ${started.canary.instanceName}, ${started.targets.length} target(s). Follow it with \`arrgo rollout watch ${started.id}\`.`));
        }),
      ),
    'arrgo rollout start --canary radarr-test --targets radarr-main radarr-4k',
    'arrgo rollout start --canary 3 --targets 4 5 6 --section qualityProfiles --batch-size 2 --watch',
  );

  examples(
    rollout
      .command('status')
      .description('One rollout in detail, or the latest rollouts without an argument')
      .argument('[rollout]', 'rollout id')
      .action(
        withContext(async (ctx, [ref]) => {
          if (ref === undefined) {
            const page = await unwrap(ctx.client.GET('/api/v1/canary/rollouts', { params: { query: { pageSize: 50 } } }));
            emit(ctx, page.items, (items) =>
              printTable(ctx, ['id', 'app', 'status', 'canary', 'targets', 'done', 'updated'], items.map((r) => [r.id, r.arrType, r.status, `${r.canary.instanceName} (${r.canaryStatus})`, r.targets.length, r.rolloutResults.length, when(r.updatedAt)])),
            );
            return;
          }
          const found = await getRollout(ctx, ref);
          emit(ctx, found, () => printRollout(ctx, found));
        }),
      ),
    'arrgo rollout status',
    'arrgo rollout status 12 -o json | jq .status',
  );

  for (const action of ['proceed', 'abort'] as const) {
    examples(
      rollout
        .command(action)
        .description(action === 'proceed' ? 'Pass the gate: roll the sync out to the targets (asks first unless --yes)' : 'Stop a rollout at the gate; nothing more is written (asks first unless --yes)')
        .argument('<rollout>', 'rollout id')
        .option('--watch', 'then watch it (as `arrgo rollout watch`)')
        .action(
          withContext<{ watch?: boolean }>(async (ctx, [ref], options) => {
            const current = await getRollout(ctx, ref);
            await confirm(ctx, action === 'proceed' ? `Roll the sync out to ${current.targets.length} target(s) of rollout ${current.id}?` : `Abort rollout ${current.id}?`);
            const path = action === 'proceed' ? '/api/v1/canary/rollouts/{id}/proceed' : '/api/v1/canary/rollouts/{id}/abort';
            const answered = await unwrap(ctx.client.POST(path, { params: { path: { id: current.id } }, body: { stateToken: current.stateToken } }));
            if (options.watch) return watch(ctx, current.id);
            emit(ctx, answered, () => printLine(ctx, `Rollout ${answered.id}: ${answered.status}.`));
          }),
        ),
      `arrgo rollout ${action} 12`,
      `arrgo rollout ${action} 12 --yes${action === 'proceed' ? ' --watch' : ''}`,
    );
  }

  examples(
    rollout
      .command('watch')
      .description(
        'Progress bars per batch and target until the rollout ends or waits at the gate. Exit 0 completed, 3 waiting at the gate, 1 aborted or failed (its reason on stderr)',
      )
      .argument('<rollout>', 'rollout id')
      .action(withContext(async (ctx, [ref]) => watch(ctx, positiveInt('rollout', ref)))),
    'arrgo rollout watch 12',
    'arrgo rollout watch 12 && echo "rolled out"',
  );
}

async function getRollout(ctx: CliContext, ref: unknown): Promise<Rollout> {
  return unwrap(ctx.client.GET('/api/v1/canary/rollouts/{id}', { params: { path: { id: positiveInt('rollout', ref) } } }));
}

/** Follows a rollout until it ends or waits at the gate; sets the exit code from where it stopped. */
async function watch(ctx: CliContext, id: number): Promise<void> {
  const view = ctx.output === 'json' ? null : ctx.stdout.isTTY ? new ProgressView(ctx) : new LineView(ctx);
  let rollout: Rollout;
  try {
    for (;;) {
      rollout = await unwrap(ctx.client.GET('/api/v1/canary/rollouts/{id}', { params: { path: { id } } }));
      view?.update(rollout);
      if (FINAL.includes(rollout.status) || rollout.status === 'awaiting_confirmation') break;
      await sleep(WATCH_INTERVAL_MS);
    }
  } finally {
    view?.stop();
  }
  if (ctx.output === 'json') printJson(ctx, rollout);
  else printLine(ctx, endText(rollout));
  if (rollout.status === 'awaiting_confirmation') process.exitCode = EXIT.gate;
  if (rollout.status === 'aborted' || rollout.status === 'failed') throw new CliError(`Rollout ${rollout.id} ${rollout.status}${rollout.statusReason ? `: ${rollout.statusReason}` : ''}`);
}

function printRollout(ctx: CliContext, rollout: Rollout): void {
  printLine(ctx, `Rollout ${rollout.id} (${rollout.arrType}): ${rollout.status}${rollout.statusReason ? ` (${rollout.statusReason})` : ''}`);
  printLine(ctx, `Canary ${rollout.canary.instanceName}: ${rollout.canaryStatus}; sections ${rollout.sections.join(', ')}; batches of ${rollout.batchSize}; started ${when(rollout.createdAt)}`);
  if (rollout.warning) printLine(ctx, `Warning: ${rollout.warning}`);
  printTable(
    ctx,
    ['target', 'state', 'summary'],
    rollout.targets.map((t, index) => [t.instanceName, targetState(rollout, index), rollout.rolloutResults.find((r) => r.instanceId === t.instanceId)?.summary]),
  );
}

function endText(rollout: Rollout): string {
  switch (rollout.status) {
    case 'completed':
      return `Rollout ${rollout.id} completed: ${rollout.rolloutResults.filter((r) => r.status === 'success').length} of ${rollout.targets.length} target(s) synced.`;
    case 'awaiting_confirmation':
      return `Rollout ${rollout.id} waits at the gate: canary ${rollout.canary.instanceName} ${rollout.canaryStatus}. Next: \`arrgo rollout proceed ${rollout.id}\` or \`arrgo rollout abort ${rollout.id}\`.`;
    default:
      return `Rollout ${rollout.id}: ${rollout.status}.`;
  }
}

/** Where each target stands: its result, or waiting/syncing. */
function targetState(rollout: Rollout, index: number): string {
  const target = rollout.targets[index];
  const result = rollout.rolloutResults.find((r) => r.instanceId === target.instanceId);
  if (result) return result.status;
  const batch = Math.floor(index / rollout.batchSize);
  return rollout.status === 'rolling_out' && batch === Math.floor(rollout.rolloutResults.length / rollout.batchSize) ? 'syncing' : 'waiting';
}

function batchesOf(rollout: Rollout): number[][] {
  const batches: number[][] = [];
  rollout.targets.forEach((_, index) => (batches[Math.floor(index / rollout.batchSize)] ??= []).push(index));
  return batches;
}

interface WatchView {
  update(rollout: Rollout): void;
  stop(): void;
}

/** A terminal: one bar for the canary, one per batch and one per target, redrawn in place. */
class ProgressView implements WatchView {
  private readonly bars: MultiBar;
  private canary: SingleBar | null = null;
  private batches: SingleBar[] = [];
  private targets: SingleBar[] = [];

  constructor(ctx: CliContext) {
    // cli-progress (and its string-width) loads only for a watch in a terminal: other commands start without it.
    const { MultiBar: Bars } = require('cli-progress') as typeof import('cli-progress');
    this.bars = new Bars({ format: '{label} [{bar}] {value}/{total} {state}', barsize: 20, barCompleteChar: '█', barIncompleteChar: '░', hideCursor: true, clearOnComplete: false, stopOnComplete: false, autopadding: true, stream: ctx.stdout as NodeJS.WriteStream, noTTYOutput: false });
  }

  update(rollout: Rollout): void {
    if (!this.canary) {
      this.canary = this.bars.create(1, 0, { label: pad(`canary ${rollout.canary.instanceName}`), state: rollout.canaryStatus });
      this.batches = batchesOf(rollout).map((members, b) => this.bars.create(members.length, 0, { label: pad(`batch ${b + 1}`), state: 'waiting' }));
      this.targets = rollout.targets.map((t) => this.bars.create(1, 0, { label: pad(`  ${t.instanceName}`), state: 'waiting' }));
    }
    const canaryDone = !['pending', 'running'].includes(rollout.canaryStatus);
    this.canary.update(canaryDone ? 1 : 0, { state: rollout.canaryStatus });
    const states = rollout.targets.map((_, index) => targetState(rollout, index));
    batchesOf(rollout).forEach((members, b) => {
      const done = members.filter((index) => !['waiting', 'syncing'].includes(states[index])).length;
      this.batches[b].update(done, { state: done === members.length ? 'done' : members.some((index) => states[index] === 'syncing') ? 'syncing' : 'waiting' });
    });
    states.forEach((state, index) => this.targets[index].update(['waiting', 'syncing'].includes(state) ? 0 : 1, { state }));
  }

  stop(): void {
    this.bars.stop();
  }
}

/** No terminal: one line per change, for logs. */
class LineView implements WatchView {
  private readonly seen = new Map<string, string>();

  constructor(private readonly ctx: CliContext) {}

  update(rollout: Rollout): void {
    this.say('rollout', `rollout ${rollout.id}: ${rollout.status}`);
    this.say('canary', `canary ${rollout.canary.instanceName}: ${rollout.canaryStatus}`);
    rollout.targets.forEach((t, index) => this.say(`target ${t.instanceId}`, `target ${t.instanceName}: ${targetState(rollout, index)}`));
  }

  stop(): void {}

  private say(key: string, text: string): void {
    if (this.seen.get(key) === text) return;
    this.seen.set(key, text);
    printLine(this.ctx, text);
  }
}

function pad(label: string): string {
  return label.length > 28 ? `${label.slice(0, 27)}…` : label.padEnd(28);
}
