/**
 * Adopting an app's own configuration (pure): the inverse of the sync transform, planned as
 * user-layer ops against a database. See docs/sync.md, "Adopting an app's configuration".
 */
export { invertLiveState, canonicalQualities, nameProblem } from './inverse';
export type { AdoptedState, AdoptedCustomFormat, AdoptionSkip, InverseInput } from './inverse';
export { planAdoption, scopedScores } from './plan';
export type { AdoptionPlan, AdoptionEntry, AdoptionOverride, AdoptionOp, AdoptionInput } from './plan';
