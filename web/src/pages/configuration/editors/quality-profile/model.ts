// The quality profile's portable payload as its editor reads it (src/domain/pcd/entities/quality-profile.ts),
// and the field edits that save a draft of it.
import { fieldChanges, keyedListChanges, type FieldChange } from '../field-edits';
export interface QualityItem {
  type: 'quality' | 'group';
  name: string;
  enabled: boolean;
  upgradeUntil: boolean;
  members?: string[];
}

export interface CustomFormatScore {
  name: string;
  score: number;
}

/** Score scopes: 'all' applies to every app family; a family's own score is used for it instead. */
export const SCORE_SCOPES = ['all', 'movie_app', 'series_app', 'music_app'] as const;
export type ScoreScope = (typeof SCORE_SCOPES)[number];

export type Scores = Record<ScoreScope, CustomFormatScore[]>;

export interface QualityProfile {
  name: string;
  description: string | null;
  upgradesAllowed: boolean;
  minimumCustomFormatScore: number;
  upgradeUntilScore: number;
  upgradeScoreIncrement: number;
  tags: string[];
  languages: { name: string; type: 'must' | 'only' | 'not' | 'simple' }[];
  qualities: QualityItem[];
  customFormats: Scores;
}

/** Scores of a scope in the API's order (by name), with `changes` applied (a score per format name). */
export function withScores(list: CustomFormatScore[], changes: Map<string, number>): CustomFormatScore[] {
  const merged = new Map(list.map((s) => [s.name, s.score]));
  for (const [name, score] of changes) merged.set(name, score);
  return [...merged].map(([name, score]) => ({ name, score })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The edits turning `original` into `draft`, each at the narrowest path the API addresses. */
export function profileChanges(original: QualityProfile, draft: QualityProfile): FieldChange[] {
  return [
    ...fieldChanges(original, draft, ['description', 'upgradesAllowed', 'minimumCustomFormatScore', 'upgradeUntilScore', 'upgradeScoreIncrement', 'tags']),
    ...keyedListChanges(['qualities'], original.qualities, draft.qualities, 'name', ['enabled', 'upgradeUntil'], true),
    ...keyedListChanges(['languages'], original.languages, draft.languages, 'name', ['type']),
    ...SCORE_SCOPES.flatMap((scope) => keyedListChanges(['customFormats', scope], original.customFormats[scope], draft.customFormats[scope], 'name', ['score'])),
  ];
}
