import { branchNotFoundText } from '../pcd/source-failures';

/** Why a reference-guide sync failed: stored as a code, shown with this pre-authored text (never git's or the file system's). */
export const REF_GUIDE_FAILURES = {
  git_unavailable: 'git is not installed on the worker.',
  fetch_failed: 'The repository could not be fetched (check the URL, branch, network and access rights).',
  auth_failed: 'The git server refused access: a private repository needs a token that may read it; set one (PATCH with body.token) and sync again.',
  branch_not_found: 'The branch does not exist in the repository.',
  not_a_repository: 'The clone directory is not a git repository; sync again to re-clone.',
  source_missing: 'The local directory no longer exists.',
  guide_missing: 'The source has no guide JSON for its app family (docs/json/radarr or docs/json/sonarr).',
  guide_invalid: 'A guide JSON file could not be read as a JSON object.',
  source_deleted: 'The source was deleted while it was syncing.',
  sync_failed: 'The sync could not be completed; the last good cache is kept.',
} as const;

export type RefGuideFailure = keyof typeof REF_GUIDE_FAILURES;

/** A sync's failure text; a missing branch is named when the source has one. */
export function refGuideFailureText(reason: string, branch: string | null = null): string {
  if (reason === 'branch_not_found' && branch) return branchNotFoundText(branch, 'sync');
  return (REF_GUIDE_FAILURES as Record<string, string>)[reason] ?? REF_GUIDE_FAILURES.sync_failed;
}
