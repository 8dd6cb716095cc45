/**
 * The in-memory "database" of one emulated app. Entities are kept in the shape the app returns, so
 * tests can read and edit them directly to simulate manual changes made in the app's UI:
 *
 *   emulator.state.qualityProfiles.find((p) => p.name === 'HD-1080p')!.minFormatScore = 10;
 *
 * Ids behave like SQLite AUTOINCREMENT: never reused, and always above any id present in the state.
 */
import type {
  CustomFormatResource,
  DelayProfileResource,
  Language,
  MetadataProfileResource,
  QualityDefinitionResource,
  QualityProfileQualityItemResource,
  TagResource,
} from '../domain/app-resources';
import type { AppFacts, QualityFact } from './apps/facts';
import { DEFAULT_METADATA_ORDER, PRIMARY_ALBUM_TYPES, RELEASE_STATUSES, SECONDARY_ALBUM_TYPES } from './apps/lidarr';

export type QualityItem = QualityProfileQualityItemResource<QualityFact>;

/** A quality profile as stored: formatItems keep only the format id and score (names are resolved on read). */
export interface StoredQualityProfile {
  id: number;
  name: string;
  upgradeAllowed: boolean;
  cutoff: number;
  items: QualityItem[];
  minFormatScore: number;
  cutoffFormatScore: number;
  /** Radarr and Sonarr only. */
  minUpgradeFormatScore?: number;
  formatItems: { format: number; score: number }[];
  /** Radarr only. */
  language?: Language;
}

export type StoredQualityDefinition = QualityDefinitionResource<QualityFact>;

export type IdSequence = 'customFormats' | 'qualityProfiles' | 'qualityDefinitions' | 'delayProfiles' | 'tags' | 'metadataProfiles';

export interface EmulatorState {
  customFormats: CustomFormatResource[];
  qualityProfiles: StoredQualityProfile[];
  qualityDefinitions: StoredQualityDefinition[];
  delayProfiles: DelayProfileResource[];
  tags: TagResource[];
  /** Lidarr only (empty for the other apps). */
  metadataProfiles: MetadataProfileResource[];
  /** The naming config row (without id; the app always reports id 1). */
  naming: Record<string, unknown>;
  /** Media-management settings that were saved; unset keys read back as the app's defaults. */
  mediaManagement: Record<string, unknown>;
  /** Highest id handed out per table. */
  sequences: Record<IdSequence, number>;
}

/** Next id for a table: above the sequence and above anything a test inserted by hand. */
export function nextId(state: EmulatorState, table: IdSequence): number {
  const rows = state[table] as { id: number }[];
  const id = Math.max(state.sequences[table], ...rows.map((row) => row.id)) + 1;
  state.sequences[table] = id;
  return id;
}

export function qualityById(facts: AppFacts, id: number): QualityFact | undefined {
  return facts.qualities.find((quality) => quality.id === id);
}

/**
 * QualityProfileService.GetDefaultProfile: definitions grouped (by weight, or GroupWeight on Lidarr) in
 * declaration order; single qualities stay items, groups get ids from 1000; a cutoff inside a group
 * becomes the group's id.
 */
export function defaultProfileItems(facts: AppFacts, cutoffQualityId: number, allowed: number[]): { items: QualityItem[]; cutoff: number } {
  const groups = new Map<number, typeof facts.qualityDefinitions>();
  for (const definition of facts.qualityDefinitions) {
    const group = groups.get(definition.groupKey) ?? [];
    group.push(definition);
    groups.set(definition.groupKey, group);
  }
  const items: QualityItem[] = [];
  let groupId = 1000;
  let cutoff = cutoffQualityId;
  for (const group of groups.values()) {
    if (group.length === 1) {
      const quality = qualityById(facts, group[0].qualityId)!;
      items.push({ quality: { ...quality }, items: [], allowed: allowed.includes(quality.id) });
      continue;
    }
    const groupAllowed = group.some((definition) => allowed.includes(definition.qualityId));
    items.push({
      id: groupId,
      name: group[0].groupName,
      items: group.map((definition) => ({ quality: { ...qualityById(facts, definition.qualityId)! }, items: [], allowed: groupAllowed })),
      allowed: groupAllowed,
    });
    if (group.some((definition) => definition.qualityId === cutoffQualityId)) cutoff = groupId;
    groupId++;
  }
  return { items, cutoff };
}

/** A new profile as GetDefaultProfile builds it (also the body of GET qualityprofile/schema). */
export function defaultProfile(facts: AppFacts, state: EmulatorState, name: string, cutoffQualityId: number, allowed: number[]): Omit<StoredQualityProfile, 'id'> {
  const { items, cutoff } = defaultProfileItems(facts, cutoffQualityId, allowed);
  const profile: Omit<StoredQualityProfile, 'id'> = {
    name,
    upgradeAllowed: false,
    cutoff,
    items,
    minFormatScore: 0,
    cutoffFormatScore: 0,
    formatItems: state.customFormats.map((format) => ({ format: format.id, score: 0 })),
  };
  if (facts.hasMinUpgradeFormatScore) profile.minUpgradeFormatScore = 1;
  if (facts.profileLanguage) profile.language = { ...facts.profileLanguage };
  return profile;
}

function metadataProfile(id: number, name: string, primary: number[], secondary: number[], statuses: number[]): MetadataProfileResource {
  const pick = <T extends { id: number }>(all: T[], order: number[]) => order.map((typeId) => all.find((type) => type.id === typeId)!);
  return {
    id,
    name,
    primaryAlbumTypes: pick(PRIMARY_ALBUM_TYPES, DEFAULT_METADATA_ORDER.primary).map((albumType) => ({ albumType: { ...albumType }, allowed: primary.includes(albumType.id) })),
    secondaryAlbumTypes: pick(SECONDARY_ALBUM_TYPES, DEFAULT_METADATA_ORDER.secondary).map((albumType) => ({
      albumType: { ...albumType },
      allowed: secondary.includes(albumType.id),
    })),
    releaseStatuses: pick(RELEASE_STATUSES, DEFAULT_METADATA_ORDER.releaseStatus).map((releaseStatus) => ({
      releaseStatus: { ...releaseStatus },
      allowed: statuses.includes(releaseStatus.id),
    })),
  };
}

/** A fresh install: what the app's migrations and startup handlers create. */
export function createInitialState(facts: AppFacts): EmulatorState {
  const state: EmulatorState = {
    customFormats: [],
    qualityProfiles: [],
    qualityDefinitions: [],
    delayProfiles: [],
    tags: [],
    metadataProfiles: [],
    naming: { ...facts.naming.defaults },
    mediaManagement: {},
    sequences: { customFormats: 0, qualityProfiles: 0, qualityDefinitions: 0, delayProfiles: 0, tags: 0, metadataProfiles: 0 },
  };

  // QualityDefinitionService.InsertMissingDefinitions: ordered by weight (stable), titles = quality names.
  const byWeight = facts.qualityDefinitions.map((definition, index) => ({ definition, index })).sort((a, b) => a.definition.weight - b.definition.weight || a.index - b.index);
  for (const { definition } of byWeight) {
    const quality = qualityById(facts, definition.qualityId)!;
    state.qualityDefinitions.push({
      id: nextId(state, 'qualityDefinitions'),
      quality: { ...quality },
      title: quality.name,
      weight: definition.weight,
      minSize: definition.minSize,
      maxSize: definition.maxSize,
      preferredSize: definition.preferredSize,
    });
  }

  for (const profile of facts.defaultProfiles) {
    state.qualityProfiles.push({
      id: nextId(state, 'qualityProfiles'),
      ...defaultProfile(facts, state, profile.name, profile.cutoffQualityId, profile.allowedQualityIds),
    });
  }

  // The global delay profile from the initial migration (bypassIfHighestQuality was later set on all rows).
  state.delayProfiles.push({
    id: nextId(state, 'delayProfiles'),
    enableUsenet: true,
    enableTorrent: true,
    preferredProtocol: 'usenet',
    usenetDelay: 0,
    torrentDelay: 0,
    bypassIfHighestQuality: true,
    bypassIfAboveCustomFormatScore: false,
    minimumCustomFormatScore: 0,
    order: 2147483647,
    tags: [],
  });

  if (facts.metadataProfiles) {
    // MetadataProfileService on startup: "Standard" (Album / Studio / Official), then the empty "None".
    state.metadataProfiles.push(metadataProfile(nextId(state, 'metadataProfiles'), 'Standard', [0], [0], [0]));
    state.metadataProfiles.push(metadataProfile(nextId(state, 'metadataProfiles'), 'None', [], [], []));
  }
  return state;
}
