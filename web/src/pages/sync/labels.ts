import type { SyncChange, SyncPreview, SyncSection } from '../../api/types';

// The console's words for the API's sync vocabulary (labels only: the values are the API's).
export const SECTION_LABELS: Record<SyncSection, string> = {
  qualityProfiles: 'Quality profiles',
  delayProfiles: 'Delay profile',
  mediaManagement: 'Media management',
  metadataProfiles: 'Metadata profile',
};

export const SECTION_OPTIONS = (Object.keys(SECTION_LABELS) as SyncSection[]).map((value) => ({ value, label: SECTION_LABELS[value] }));

/** An entity type in words ("custom format"); an unknown one as the API spells it. */
export function entityLabel(entityType: string): string {
  const known: Record<string, string> = {
    customFormat: 'custom format',
    qualityProfile: 'quality profile',
    delayProfile: 'delay profile',
    naming: 'naming',
    mediaSettings: 'media settings',
    qualityDefinition: 'quality definition',
    metadataProfile: 'metadata profile',
  };
  return known[entityType] ?? entityType;
}

export type Action = SyncChange['action'];
export const ACTIONS: Action[] = ['create', 'update', 'delete', 'unchanged'];

export const ACTION_COLORS: Record<Action, string> = { create: 'green', update: 'blue', delete: 'red', unchanged: 'gray' };

/** "to create" and the like: what the preview says would happen. */
export const ACTION_PHRASES: Record<Action, string> = { create: 'to create', update: 'to update', delete: 'to delete', unchanged: 'unchanged' };

export interface ChangeGroup {
  label: string;
  changes: SyncChange[];
}

/** A section's SyncChanges by entity kind, in the order the API groups them. */
export function sectionGroups(preview: SyncPreview, section: SyncSection): ChangeGroup[] {
  const one = (label: string, change: SyncChange | null | undefined): ChangeGroup[] => (change ? [{ label, changes: [change] }] : []);
  switch (section) {
    case 'qualityProfiles':
      return preview.qualityProfiles
        ? [
            { label: 'Custom formats', changes: preview.qualityProfiles.customFormats },
            { label: 'Quality profiles', changes: preview.qualityProfiles.qualityProfiles },
          ]
        : [];
    case 'delayProfiles':
      return one('Delay profile', preview.delayProfiles?.profile);
    case 'mediaManagement':
      return preview.mediaManagement
        ? [...one('Naming', preview.mediaManagement.naming), { label: 'Quality definitions', changes: preview.mediaManagement.qualityDefinitions }, ...one('Media settings', preview.mediaManagement.mediaSettings)]
        : [];
    case 'metadataProfiles':
      return one('Metadata profile', preview.metadataProfiles?.profile);
  }
}

/** Every SyncChange of the preview, section by section. */
export function allChanges(preview: SyncPreview): SyncChange[] {
  return preview.sections.flatMap((section) => sectionGroups(preview, section).flatMap((group) => group.changes));
}

/** How many changes of each action a list holds. */
export function countActions(changes: SyncChange[]): Record<Action, number> {
  const counts: Record<Action, number> = { create: 0, update: 0, delete: 0, unchanged: 0 };
  for (const change of changes) counts[change.action] += 1;
  return counts;
}

/** "1 change", "3 changes". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
