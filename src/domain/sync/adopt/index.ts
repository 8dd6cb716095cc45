/**
 * Adopting an app's own configuration (pure): the inverse of the sync transform, planned as
 * user-layer ops against a database. See docs/sync.md, "Adopting an app's configuration".
 */
export { invertLiveState, canonicalQualities, nameProblem } from './inverse';
export type { AdoptedState, AdoptedCustomFormat, AdoptionSkip, InverseInput } from './inverse';
export { planAdoption, scopedScores, adoptionLiveNeeds } from './plan';
export type { AdoptionPlan, AdoptionEntry, AdoptionOverride, AdoptionOp, AdoptionInput } from './plan';

/** Where an adoption is: generating its preview, ready to apply, applying, applied, failed, expired (TTL passed or the database moved), discarded. */
export const ADOPTION_STATUSES = ['generating', 'ready', 'applying', 'applied', 'failed', 'expired', 'discarded'] as const;
export type AdoptionStatus = (typeof ADOPTION_STATUSES)[number];
