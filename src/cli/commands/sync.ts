import type { Command } from 'commander';
import { unwrap, type components } from '../../client';
import { confirm, examples, positiveInt, resolveInstance, sleep, withContext } from '../command-kit';
import type { CliContext } from '../context';
import { previewChanges, unifiedDiff } from '../diff';
import { CliError } from '../errors';
import { colorsOf, emit, printJson, printLine } from '../output';

type SyncPreview = components['schemas']['SyncPreview'];
type SyncSection = components['schemas']['SyncSection'];

export const SYNC_SECTIONS: SyncSection[] = ['qualityProfiles', 'delayProfiles', 'mediaManagement', 'metadataProfiles'];

/** `arrgo sync preview|apply`: what a sync would change, as a diff, and the sync itself. */
export function registerSyncCommands(program: Command): void {
  const sync = program.command('sync').description("Sync an instance from its databases: preview the field diff, then apply it");
  examples(sync, 'arrgo sync preview radarr-main', 'arrgo sync apply radarr-main --yes');

  examples(
    sync
      .command('preview')
      .description('What a sync would change, as a unified diff (--- the app now, +++ what arrgo wants); writes nothing to the app')
      .argument('<instance>', 'id or name')
      .option('--section <section...>', `only these sections (${SYNC_SECTIONS.join(', ')})`)
      .action(
        withContext<{ section?: string[] }>(async (ctx, [ref], options) => {
          const preview = await generatePreview(ctx, ref, options.section);
          emit(ctx, preview, () => printPreview(ctx, preview));
          failIfFailed(preview);
        }),
      ),
    'arrgo sync preview radarr-main',
    'arrgo sync preview radarr-main --section qualityProfiles -o json',
  );

  examples(
    sync
      .command('apply')
      .description('Preview, show the diff, ask, then apply (--yes: no question; without a terminal --yes is required)')
      .argument('<instance>', 'id or name')
      .option('--section <section...>', `only these sections (${SYNC_SECTIONS.join(', ')})`)
      .option('--preview <id>', 'apply this earlier preview (still fresh) instead of a new one')
      .action(
        withContext<{ section?: string[]; preview?: string }>(async (ctx, [ref], options) => {
          const preview = options.preview ? await earlierPreview(ctx, ref, positiveInt('--preview', options.preview)) : await generatePreview(ctx, ref, options.section);
          failIfFailed(preview);
          if (ctx.output === 'table') printPreview(ctx, preview);
          const { create, update, delete: remove } = preview.counts;
          if (create + update + remove === 0) {
            if (ctx.output === 'json') printJson(ctx, preview);
            return;
          }
          await confirm(ctx, `Apply ${create + update + remove} change(s) to ${preview.instanceName}?`);
          let applied = await unwrap(ctx.client.POST('/api/v1/sync/previews/{id}/apply', { params: { path: { id: preview.id }, query: { wait: true, waitSeconds: 120 } } }));
          while (applied.status === 'applying') {
            await sleep(1000);
            applied = await unwrap(ctx.client.GET('/api/v1/sync/previews/{id}', { params: { path: { id: preview.id } } }));
          }
          emit(ctx, applied, () => printLine(ctx, `Sync ${applied.status}${applied.runId ? ` (run ${applied.runId}, see \`arrgo history\`)` : ''}.`));
          failIfFailed(applied);
        }),
      ),
    'arrgo sync apply radarr-main',
    'arrgo sync apply radarr-main --yes   # in a script or CI job',
  );
}

/** Creates a preview and waits until it is generated. */
async function generatePreview(ctx: CliContext, ref: unknown, sections: string[] | undefined): Promise<SyncPreview> {
  const instance = await resolveInstance(ctx.client, ref);
  let preview = await unwrap(
    ctx.client.POST('/api/v1/sync/previews', { params: { query: { wait: true, waitSeconds: 120 } }, body: { instanceId: instance.id, ...(sections ? { sections: sections as SyncSection[] } : {}) } }),
  );
  while (preview.status === 'generating') {
    await sleep(1000);
    preview = await unwrap(ctx.client.GET('/api/v1/sync/previews/{id}', { params: { path: { id: preview.id } } }));
  }
  return preview;
}

/** An earlier preview, which must be of the instance named on the command line. */
async function earlierPreview(ctx: CliContext, ref: unknown, id: number): Promise<SyncPreview> {
  const [instance, preview] = await Promise.all([resolveInstance(ctx.client, ref), unwrap(ctx.client.GET('/api/v1/sync/previews/{id}', { params: { path: { id } } }))]);
  if (preview.instanceId !== instance.id) throw new CliError(`Preview ${id} is of ${preview.instanceName}, not of ${instance.name}`);
  return preview;
}

function printPreview(ctx: CliContext, preview: SyncPreview): void {
  const { create, update, delete: remove, unchanged } = preview.counts;
  const changes = previewChanges(preview);
  if (create + update + remove > 0) {
    const databases = preview.databases.map((d) => d.name).join(', ');
    ctx.stdout.write(unifiedDiff(changes, { current: `${preview.instanceName} (live)`, desired: `${preview.instanceName} (desired${databases ? ` from ${databases}` : ''})` }, colorsOf(ctx)));
  }
  printLine(ctx, `Preview ${preview.id} of ${preview.instanceName}: ${create} to create, ${update} to update, ${remove} to delete, ${unchanged} unchanged${preview.expiresAt ? ` (fresh until ${preview.expiresAt})` : ''}.`);
  for (const issue of preview.issues) printLine(ctx, `${issue.severity}: ${issue.entityType} "${issue.name}": ${issue.message}`);
}

function failIfFailed(preview: SyncPreview): void {
  if (preview.status === 'failed' || preview.status === 'expired') {
    throw new CliError(preview.failure ? `${preview.failure.message} ${preview.failure.recoveryAction}`.trim() : `The sync of ${preview.instanceName} ${preview.status}`);
  }
}
