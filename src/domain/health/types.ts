/**
 * Shapes of config-health scoring (spec: POST /config-health/{instanceId}/recompute) and the
 * constants every computation is stamped with. Type-only imports: this module has no runtime
 * dependencies.
 */
import type { ArrType } from '../arr-types';
import type { SyncSelection } from '../sync/selection';
import type { SyncChange, SyncIssue } from '../sync/types';

/** Version of the scoring rules; stored with every snapshot. Bump it when a formula changes. */
export const ENGINE_VERSION = 'health-1.0.0';
/** Version of the suggestion texts (spec: suggestion.templateVersion). */
export const TEMPLATE_VERSION = 'health-suggestions-1';

export const CRITERION_IDS = ['completeness', 'drift', 'coherence', 'compatibility', 'ref_alignment'] as const;
export type CriterionId = (typeof CRITERION_IDS)[number];

export const CRITERION_LABELS: Record<CriterionId, string> = {
  completeness: 'Completeness',
  drift: 'Drift',
  coherence: 'Coherence',
  compatibility: 'Compatibility',
  ref_alignment: 'Reference alignment',
};

/** Default weights (integers, summing to 100). A weight of 0 disables the criterion. */
export const DEFAULT_WEIGHTS: Readonly<Record<CriterionId, number>> = Object.freeze({
  completeness: 25,
  drift: 30,
  coherence: 20,
  compatibility: 15,
  ref_alignment: 10,
});
export const MAX_WEIGHT = 100;

export const HEALTH_BANDS = ['healthy', 'attention', 'needs-review', 'unknown'] as const;
export type HealthBand = (typeof HEALTH_BANDS)[number];

/** Overall score thresholds: healthy >= 80, attention >= 50, needs-review below. */
export const BAND_THRESHOLDS = Object.freeze({ healthy: 80, attention: 50 });

/** Spec tones are neutral, info, warning and danger; health never goes above warning. */
export const HEALTH_TONES = ['neutral', 'info', 'warning'] as const;
export type HealthTone = (typeof HEALTH_TONES)[number];

export interface Suggestion {
  headline: string;
  detail: string[];
  tone: HealthTone;
  templateVersion: string;
}

export interface CriterionResult {
  id: CriterionId;
  label: string;
  /** 0..100; null when the criterion was skipped (no evidence) or disabled (weight 0). */
  score: number | null;
  weight: number;
  /** This criterion's integer share of the unit's score; 0 when skipped or disabled. */
  contribution: number;
  detail: string[];
  suggestions: Suggestion[];
}

export interface ScoredUnit {
  /** Integer 0..100. 0 when the band is unknown (nothing was scored). */
  score: number;
  band: HealthBand;
  criteria: CriterionResult[];
  suggestions: Suggestion[];
}

export interface ProfileUnit extends ScoredUnit {
  name: string;
}

export interface HealthResult {
  instanceId: number;
  instanceName: string;
  arrType: ArrType;
  engineVersion: string;
  generatedAt: string;
  overall: ScoredUnit;
  profiles: ProfileUnit[];
}

/** Stored drift statuses (never-checked is represented by `drift: null`). */
export type HealthDriftStatus = 'in-sync' | 'drifted' | 'unreachable' | 'unauthorized' | 'error';

/** The last stored drift check of the instance. */
export interface HealthDriftEvidence {
  status: HealthDriftStatus;
  /** Sanitized drift reason (src/domain/drift.ts DriftReason), null when in sync. */
  reason: string | null;
  /** The app version reported by the app (system/status), e.g. "5.14.0.9383". */
  detectedVersion: string | null;
  contentCheckedAt: string | null;
  /** classifyDrift output: updates, creates, unmanaged entities. */
  drift: SyncChange[];
  missing: SyncChange[];
  unmanaged: SyncChange[];
  /** Managed (desired) entities in the compared preview: every SyncChange that is not unmanaged, missing ones included. */
  managedTotal: number;
}

/** A selected quality profile as the resolved PCD has it. */
export interface DesiredProfile {
  name: string;
  /** The profile can be expressed on the instance's app family (PCD compatibleArrTypes includes it). */
  compatible: boolean;
  /** Names of the custom formats the profile scores for the app (the `all` and app scores, as readSyncSource collects them). */
  customFormats: string[];
}

/** Entries compared with a reference guide; `differences` name the entries that differ (shown in the suggestion). */
export interface ReferenceCounts {
  matched: number;
  total: number;
  /** The reference source's name, for the detail line. */
  source?: string;
  differences?: string[];
}

export interface HealthInput {
  instance: { instanceId: number; instanceName: string; arrType: ArrType; enabled: boolean };
  /** The instance's sync selection; null when it is not configured. */
  selection: SyncSelection | null;
  desired: {
    /** The selected profiles the database has (selected names it lacks are simply absent). */
    profiles: DesiredProfile[];
    /** Transform issues (readSyncSource missing names + transformSource/planSync issues). */
    issues: SyncIssue[];
    /** False when the database cache was not ready: coherence and profile compatibility are skipped. */
    available: boolean;
  };
  /** The last stored drift check, or null when the instance was never checked. */
  drift: HealthDriftEvidence | null;
  /** Reference-guide alignment counts, or null when no reference source is available. */
  reference: null | (ReferenceCounts & { perProfile?: Record<string, ReferenceCounts> });
  weights?: Partial<Record<CriterionId, number>>;
  /** The computation's time (ISO 8601); becomes generatedAt. */
  now: string;
}
