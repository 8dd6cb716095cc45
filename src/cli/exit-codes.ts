/** The `arrgo` command's exit codes (docs/cli.md). `plan` follows `terraform plan -detailed-exitcode`. */
export const EXIT = {
  /** Done; for `plan`, no changes. */
  ok: 0,
  /** The command failed: the API refused it, arrgo was unreachable, or the input was wrong. */
  error: 1,
  /** `plan`: there are changes. */
  changes: 2,
  /** `rollout watch`: the rollout waits at the verification gate (proceed or abort it). */
  gate: 3,
  /** The command line itself was wrong (unknown command or option, a missing argument). */
  usage: 64,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
