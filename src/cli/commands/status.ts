import type { Command } from 'commander';
import { unwrap } from '../../client';
import { examples, withContext } from '../command-kit';
import { emit, printLine, printTable, when } from '../output';

/** `arrgo status`: the fleet at a glance (GET /fleet/overview). */
export function registerStatusCommand(program: Command): void {
  const status = program
    .command('status')
    .description('The fleet at a glance: instances, drift, health, last syncs and rollouts waiting at the gate')
    .action(
      withContext(async (ctx) => {
        const overview = await unwrap(ctx.client.GET('/api/v1/fleet/overview'));
        emit(ctx, overview, () => {
          const { counts } = overview;
          printLine(ctx, `${overview.instancesTotal} instance(s): ${counts.enabled} enabled, ${counts.disabled} disabled`);
          printLine(ctx, `Drift: ${Object.entries(counts.drift).map(([key, n]) => `${n} ${key}`).join(', ')}`);
          printLine(ctx, `Health: ${Object.entries(counts.health).map(([key, n]) => `${n} ${key}`).join(', ')}`);
          printLine(ctx);
          printTable(
            ctx,
            ['id', 'instance', 'app', 'version', 'drift', 'health', 'last sync'],
            overview.instances.map((i) => [i.id, i.name, i.arrType, i.version, i.drift.status, i.health ? `${i.health.band} ${i.health.score ?? ''}`.trim() : '', i.lastSync ? `${i.lastSync.status} ${when(i.lastSync.startedAt)}` : 'never']),
          );
          printLine(ctx);
          printLine(ctx, 'Rollouts at the gate:');
          printTable(ctx, ['rollout', 'app', 'canary', 'targets', 'waiting since'], overview.gate.map((g) => [g.rolloutId, g.arrType, g.canaryInstanceName, g.targetCount, when(g.waitingSince)]));
          if (overview.recentFailures.length > 0) {
            printLine(ctx);
            printLine(ctx, 'Recent failures:');
            printTable(ctx, ['kind', 'id', 'instance', 'status', 'message', 'at'], overview.recentFailures.map((f) => [f.kind, f.id, f.instanceName, f.status, f.message, when(f.at)]));
          }
        });
      }),
    );
  examples(status, 'arrgo status', 'arrgo status -o json | jq .counts.drift');
}
