/**
 * Config health (pure): scoring (scoring.ts, criteria.ts), trends (trends.ts) and export rendering
 * (export.ts). See docs/health.md.
 */
export * from './types';
export { scoreInstance, resolveWeights, bandOf, combine, degradation, STALE_EVIDENCE_DAYS } from './scoring';
export { checkAppVersion, MIN_APP_MAJOR, ERROR_PENALTY, WARNING_PENALTY, WARNING_PENALTY_CAP, type VersionCheck, type CriterionOutcome } from './criteria';
export * from './trends';
export * from './export';
export { desiredProfilesFrom } from './inputs';
