/**
 * Reading a preview (pure, type-only imports: safe to use from workflow code): its SyncChanges in
 * group order, and the action counts.
 */
import type { ActionCounts, SyncChange, SyncPreviewGroups, SyncSection } from './types';

/** A preview's life: generating -> ready (-> applying -> applied | failed) or expired, or failed. */
export type PreviewStatus = 'generating' | 'ready' | 'applying' | 'applied' | 'failed' | 'expired';
/** An apply run's outcome. */
export type SyncRunStatus = 'running' | 'success' | 'partial' | 'failed';

/** Every SyncChange of a preview, in group order. */
export function previewChanges(preview: SyncPreviewGroups): { section: SyncSection; change: SyncChange }[] {
  const out: { section: SyncSection; change: SyncChange }[] = [];
  if (preview.qualityProfiles) {
    for (const c of preview.qualityProfiles.customFormats) out.push({ section: 'qualityProfiles', change: c });
    for (const c of preview.qualityProfiles.qualityProfiles) out.push({ section: 'qualityProfiles', change: c });
  }
  if (preview.delayProfiles) out.push({ section: 'delayProfiles', change: preview.delayProfiles.profile });
  if (preview.mediaManagement) {
    if (preview.mediaManagement.naming) out.push({ section: 'mediaManagement', change: preview.mediaManagement.naming });
    for (const c of preview.mediaManagement.qualityDefinitions) out.push({ section: 'mediaManagement', change: c });
    if (preview.mediaManagement.mediaSettings) out.push({ section: 'mediaManagement', change: preview.mediaManagement.mediaSettings });
  }
  if (preview.metadataProfiles) out.push({ section: 'metadataProfiles', change: preview.metadataProfiles.profile });
  return out;
}

export function countActions(preview: SyncPreviewGroups): ActionCounts {
  const counts: ActionCounts = { create: 0, update: 0, delete: 0, unchanged: 0 };
  for (const { change: c } of previewChanges(preview)) counts[c.action]++;
  return counts;
}
