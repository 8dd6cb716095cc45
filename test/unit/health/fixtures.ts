/**
 * Health test fixtures: a Radarr instance syncing two profiles, a delay profile and naming, with
 * builders for drift entries, issues and whole inputs.
 */
import type { HealthDriftEvidence, HealthInput } from '../../../src/domain/health';
import { emptySelection, type SyncSelection } from '../../../src/domain/sync/selection';
import type { SyncChange, SyncIssue, SyncSection } from '../../../src/domain/sync/types';

export const NOW = '2026-11-21T10:15:00.000Z';

const SECTION_OF: Record<SyncChange['entityType'], SyncSection> = {
  customFormat: 'qualityProfiles',
  qualityProfile: 'qualityProfiles',
  delayProfile: 'delayProfiles',
  naming: 'mediaManagement',
  mediaSettings: 'mediaManagement',
  qualityDefinition: 'mediaManagement',
  metadataProfile: 'metadataProfiles',
};

export function drifted(entityType: SyncChange['entityType'], name: string, fields = 1): SyncChange {
  return {
    section: SECTION_OF[entityType],
    entityType,
    name,
    action: 'update',
    category: 'drift',
    remoteId: 7,
    fields: Array.from({ length: fields }, (_, i) => ({ field: `f${i}`, type: 'changed' as const, current: 1, desired: 2 })),
  };
}

export function missing(entityType: SyncChange['entityType'], name: string): SyncChange {
  return { section: SECTION_OF[entityType], entityType, name, action: 'create', category: 'missing', remoteId: null, fields: [] };
}

export function unmanaged(entityType: SyncChange['entityType'], name: string): SyncChange {
  return { section: SECTION_OF[entityType], entityType, name, action: 'delete', category: 'unmanaged', remoteId: 99, fields: [] };
}

export function issue(severity: 'error' | 'warning', entityType: SyncIssue['entityType'], name: string, message = 'something'): SyncIssue {
  return { severity, section: SECTION_OF[entityType], entityType, name, message };
}

export function selection(over: Partial<SyncSelection> = {}): SyncSelection {
  return { ...emptySelection(), qualityProfiles: ['HD', 'UHD'], delayProfile: 'Default', naming: 'Standard', ...over };
}

export function driftEvidence(over: Partial<HealthDriftEvidence> = {}): HealthDriftEvidence {
  return {
    status: 'in-sync',
    reason: null,
    detectedVersion: '5.14.0.9383',
    contentCheckedAt: '2026-11-21T09:00:00.000Z',
    drift: [],
    missing: [],
    unmanaged: [],
    // HD, UHD, formats A B C D, delay profile, naming, 2 quality definitions
    managedTotal: 10,
    ...over,
  };
}

/** A healthy Radarr instance: everything present and in sync, no issues, a reference at 9/10. */
export function baseInput(over: Partial<HealthInput> = {}): HealthInput {
  return {
    instance: { instanceId: 12, instanceName: 'Radarr 4K', arrType: 'movie_app', enabled: true },
    selection: selection(),
    desired: {
      profiles: [
        { name: 'HD', compatible: true, customFormats: ['A', 'B', 'C'] },
        { name: 'UHD', compatible: true, customFormats: ['B', 'D'] },
      ],
      issues: [],
      available: true,
    },
    drift: driftEvidence(),
    reference: { matched: 9, total: 10, perProfile: { HD: { matched: 4, total: 4 } } },
    now: NOW,
    ...over,
  };
}
