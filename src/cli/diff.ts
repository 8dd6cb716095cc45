import type { components } from '../client';
import type { Colors } from './output';

type SyncChange = components['schemas']['SyncChange'];
type SyncPreview = components['schemas']['SyncPreview'];

/** Every change of a preview, in the order the apply writes them. */
export function previewChanges(preview: SyncPreview): SyncChange[] {
  const qp = preview.qualityProfiles;
  const mm = preview.mediaManagement;
  return [
    ...(qp ? [...qp.customFormats, ...qp.qualityProfiles] : []),
    ...(preview.delayProfiles ? [preview.delayProfiles.profile] : []),
    ...(mm ? [mm.naming, ...mm.qualityDefinitions, mm.mediaSettings] : []),
    ...(preview.metadataProfiles ? [preview.metadataProfiles.profile] : []),
  ].filter((change): change is SyncChange => Boolean(change));
}

/**
 * Changes as a unified diff: `---` the app as it is, `+++` as arrgo wants it, one hunk per entity
 * (`@@ <type> "<name>" <action> @@`), a field removed or changed as `-path: value`, added or
 * changed as `+path: value`. Unchanged entities are left out.
 */
export function unifiedDiff(changes: SyncChange[], labels: { current: string; desired: string }, colors: Colors): string {
  const lines = [colors.bold(`--- ${labels.current}`), colors.bold(`+++ ${labels.desired}`)];
  for (const change of changes) {
    if (change.action === 'unchanged') continue;
    lines.push(colors.cyan(`@@ ${change.entityType} "${change.name}" ${change.action}${change.category ? ` (${change.category})` : ''} @@`));
    if (change.reason) lines.push(` # ${change.reason}`);
    for (const field of change.fields) {
      if (field.type !== 'added') lines.push(colors.red(`-${field.field}: ${valueText(field.current)}`));
      if (field.type !== 'removed') lines.push(colors.green(`+${field.field}: ${valueText(field.desired)}`));
    }
  }
  return `${lines.join('\n')}\n`;
}

function valueText(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}
