/**
 * What one instance syncs (stored per instance by the application) and which sections that makes.
 */
import { z } from 'zod';
import type { ArrType } from '../arr-types';
import { SYNC_SECTIONS, type SyncSection } from './types';

const pcdName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

/** Namespace rules: short, and free of the characters the suffix notation uses. */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,31}$/;

export const syncSelectionSchema = z
  .object({
    /** PCD quality profile names; the custom formats they score for the app come along. */
    qualityProfiles: z.array(pcdName).max(100),
    delayProfile: pcdName.nullable(),
    naming: pcdName.nullable(),
    mediaSettings: pcdName.nullable(),
    qualityDefinitions: pcdName.nullable(),
    /** music_app only. */
    metadataProfile: pcdName.nullable(),
    /** Suffix carried by every name arrgo writes (`Name [namespace]`); null writes PCD names as they are. */
    namespace: z.string().regex(NAMESPACE_PATTERN, 'letters, digits, space, "_", "." or "-", at most 32, starting with a letter or digit').nullable(),
    /** Delete custom formats and quality profiles on the app that arrgo does not manage. */
    deleteUnmanaged: z.boolean(),
  })
  .strict()
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.qualityProfiles.forEach((name, i) => {
      if (seen.has(name)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['qualityProfiles', i], message: `duplicate profile "${name}"` });
      seen.add(name);
    });
  });

export type SyncSelection = z.infer<typeof syncSelectionSchema>;

/** A selection that syncs nothing. */
export function emptySelection(): SyncSelection {
  return {
    qualityProfiles: [],
    delayProfile: null,
    naming: null,
    mediaSettings: null,
    qualityDefinitions: null,
    metadataProfile: null,
    namespace: null,
    deleteUnmanaged: false,
  };
}

/** Sections an app family has at all. */
export function appSections(arrType: ArrType): SyncSection[] {
  return SYNC_SECTIONS.filter((s) => s !== 'metadataProfiles' || arrType === 'music_app');
}

/** Whether the selection gives a section something to sync on this app family. */
export function sectionSelected(arrType: ArrType, selection: SyncSelection, section: SyncSection): boolean {
  switch (section) {
    case 'qualityProfiles':
      return selection.qualityProfiles.length > 0;
    case 'delayProfiles':
      return selection.delayProfile !== null;
    case 'mediaManagement':
      return selection.naming !== null || selection.mediaSettings !== null || selection.qualityDefinitions !== null;
    case 'metadataProfiles':
      return arrType === 'music_app' && selection.metadataProfile !== null;
  }
}

/** The sections a selection syncs (all of the app's sections that have something selected). */
export function selectedSections(arrType: ArrType, selection: SyncSelection): SyncSection[] {
  return appSections(arrType).filter((s) => sectionSelected(arrType, selection, s));
}
