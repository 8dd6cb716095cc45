/** Why a pull or cache build failed; stored as a code, shown with pre-authored text. */
export const SOURCE_FAILURES = {
  git_unavailable: 'git is not installed on the worker.',
  fetch_failed: 'The repository could not be fetched (check the URL, network and access rights).',
  auth_failed: 'The git server refused access: a private repository needs a token that may read it; set one (PATCH with body.token) and pull again.',
  branch_not_found: 'The branch does not exist in the repository.',
  not_a_repository: 'The clone directory is not a git repository; pull again to re-clone.',
  source_missing: 'The local directory no longer exists or has no pcd.json.',
  manifest_missing: 'The repository has no pcd.json at its root.',
  manifest_invalid: 'pcd.json is not a valid PCD manifest.',
  ops_unreadable: 'The ops/ or tweaks/ files could not be read.',
  build_failed: 'The cache could not be built from the operations.',
} as const;

/** Why a built cache is incomplete (status degraded) or unusable (status failed after a replay). */
export const REPLAY_PROBLEMS = {
  ops_failed: 'Some operations failed to apply, so the state is incomplete; see cache.stats.failedOpsByReason and cache.stats.firstFailed.',
  schema_gaps: 'The schema dependency lacks columns arrgo reads, so its entities cannot be read; see cache.stats.schemaGaps.',
  replay_empty: 'The replay produced no entities although the repository has operations; see cache.stats.firstFailed.',
} as const;

export type SourceFailure = keyof typeof SOURCE_FAILURES;

/** A source's failure text; a missing branch is named when the source has one. */
export function sourceFailureText(reason: string, branch: string | null = null): string {
  if (reason === 'branch_not_found' && branch) return branchNotFoundText(branch, 'pull');
  return ({ ...SOURCE_FAILURES, ...REPLAY_PROBLEMS } as Record<string, string>)[reason] ?? 'The database could not be prepared.';
}

/**
 * Names the branch tried (PCD databases and reference-guide sources): the user chose it and it is
 * validated as a plain branch name, while git's own output (URLs, hosts) never leaves git.ts.
 */
export function branchNotFoundText(branch: string, retry: 'pull' | 'sync'): string {
  return `The branch "${branch}" does not exist in the repository; set an existing branch (PATCH with body.branch) and ${retry} again.`;
}
