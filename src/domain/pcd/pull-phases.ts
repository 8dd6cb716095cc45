/** The step a pull is at: fetching the source, importing its ops, replaying them into the cache; then done or failed. */
export const PULL_PHASES = ['fetching', 'importing', 'replaying', 'done', 'failed'] as const;
export type PullPhase = (typeof PULL_PHASES)[number];
