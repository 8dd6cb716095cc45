/**
 * Drift classification (pure): the same preview a sync computes, read as drift. Updates are drift
 * (the app differs from the desired state), creates are missing (alerting), and entities arrgo does
 * not manage are unmanaged (non-alerting; reported with action delete whatever deleteUnmanaged
 * says, as the spec's drift detail shapes them). Every entry carries its section and category.
 *
 * Imports nothing at runtime but ./preview, so workflow code may import this module directly
 * (`src/domain/sync/drift`), unlike the package index, which pulls in the PCD reader.
 */
import { previewChanges } from './preview';
import type { SyncChange, SyncPreviewGroups } from './types';

export interface DriftClassification {
  drift: SyncChange[];
  missing: SyncChange[];
  unmanaged: SyncChange[];
  counts: { drifted: number; missing: number; unmanaged: number };
  /** True when nothing alerting was found (unmanaged entities do not count). */
  inSync: boolean;
}

export function classifyDrift(preview: SyncPreviewGroups): DriftClassification {
  const drift: SyncChange[] = [];
  const missing: SyncChange[] = [];
  const unmanaged: SyncChange[] = [];
  for (const { section, change } of previewChanges(preview)) {
    if (change.category === 'unmanaged') {
      unmanaged.push({ ...change, section, action: 'delete', category: 'unmanaged', fields: [] });
    } else if (change.action === 'update') {
      drift.push({ ...change, section, category: 'drift' });
    } else if (change.action === 'create') {
      missing.push({ ...change, section, category: 'missing', remoteId: null, fields: [] });
    }
  }
  return {
    drift,
    missing,
    unmanaged,
    counts: { drifted: drift.length, missing: missing.length, unmanaged: unmanaged.length },
    inSync: drift.length === 0 && missing.length === 0,
  };
}
