// Release titles evaluated against a database's custom formats (POST /entity-testing/evaluate), as
// the apps would: the release tester's table and the custom-format editor's live test box.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';
import { pcdKeys } from './pcd';

type Schemas = components['schemas'];
export type EvaluateRequest = Schemas['EvaluateRequest'];
export type EvaluateResponse = Schemas['EvaluateResponse'];
export type ReleaseEvaluation = EvaluateResponse['evaluations'][number];
export type FormatExplanation = NonNullable<ReleaseEvaluation['explain']>[number];
export type ConditionExplanation = FormatExplanation['conditions'][number];
export type ReleaseType = EvaluateRequest['releases'][number]['type'];

/** The release types a title is evaluated as, and the app each stands for (labels only; the API maps them). */
export const RELEASE_TYPE_OPTIONS: { value: ReleaseType; label: string }[] = [
  { value: 'movie', label: 'Movies (as Radarr)' },
  { value: 'series', label: 'Series (as Sonarr)' },
];

export const entityTestingKeys = {
  // Under the database's PCD key: an edit (usePcdChanged) explains the titles again.
  explain: (databaseId: number, type: ReleaseType, titles: readonly string[]) => [...pcdKeys.database(databaseId), 'explain', type, ...titles] as const,
};

/** Parses and evaluates titles (one request: the page decides when). */
export function useEvaluateReleases() {
  return useMutation({ mutationFn: (body: EvaluateRequest) => unwrap(api.POST('/api/v1/entity-testing/evaluate', { body })) });
}

/**
 * The `explain` detail of a few titles: which conditions passed or failed and why. The API explains
 * at most 50 releases a request, so callers ask for the rows a user opened, never the whole table.
 */
export function useExplainReleases(databaseId: number | null, type: ReleaseType, titles: readonly string[]) {
  return useQuery({
    queryKey: entityTestingKeys.explain(databaseId ?? 0, type, titles),
    enabled: databaseId !== null && titles.length > 0,
    queryFn: () =>
      unwrap(
        api.POST('/api/v1/entity-testing/evaluate', {
          body: { databaseId: databaseId!, explain: true, releases: titles.map((title, id) => ({ id, title, type })) },
        }),
      ),
  });
}

export type RegexTestResponse = Schemas['RegexTestResponse'];

/** A .NET pattern against test strings: the .NET and JavaScript answers and the constructs they read differently. */
export function useRegexTest(pattern: string, testStrings: readonly string[]) {
  return useQuery({
    queryKey: ['entity-testing', 'regex', pattern, ...testStrings] as const,
    enabled: pattern !== '',
    queryFn: () => unwrap(api.POST('/api/v1/entity-testing/regex', { body: { pattern, testStrings: [...testStrings] } })),
    placeholderData: keepPreviousData,
  });
}
