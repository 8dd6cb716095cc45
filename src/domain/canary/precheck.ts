/**
 * The check before a rollout starts: a canary that has nothing to change proves nothing (the
 * rollout would end aborted at once), so such a start is refused with the targets that do have
 * changes and one of them suggested as the canary. Pure: the reads happen in the pre-check
 * workflow's activities.
 */
import type { FailureCode } from '../failure-evidence';
import { changesOf, type Counts } from './index';

/** What a pre-check read of one instance found: the changes a sync would make, or that it could not be read. */
export type PendingChanges =
  | { instanceId: number; instanceName: string; readable: true; counts: Counts }
  | { instanceId: number; instanceName: string; readable: false; failure: FailureCode };

export interface TargetWithChanges {
  instanceId: number;
  instanceName: string;
  /** Creates, updates and deletes a sync would make. */
  changes: number;
  counts: Counts;
}

export const PRECHECK_REFUSALS = ['canary_in_sync', 'fleet_in_sync'] as const;
export type PrecheckRefusalCode = (typeof PRECHECK_REFUSALS)[number];

export interface PrecheckRefusal {
  code: PrecheckRefusalCode;
  message: string;
  /** Targets with changes, most changes first (ties in request order). */
  targetsWithChanges: TargetWithChanges[];
  /** Targets whose reads failed: whether they have changes is unknown. */
  unreadTargets: { instanceId: number; instanceName: string }[];
  /** The target with the most changes (the canary that verifies the most); null when none has changes. */
  suggestedCanaryInstanceId: number | null;
}

/** Targets named in a refusal's message; the rest are counted (the structured fields list them all). */
export const PRECHECK_NAMED_MAX = 5;

/** Whether the canary, as read, has nothing to change (an unreadable canary does not block: its sync fails with evidence). */
export function canaryInSync(canary: PendingChanges): boolean {
  return canary.readable && changesOf(canary.counts) === 0;
}

/**
 * The refusal of a start whose canary has nothing to change (null: start). `targets` are the
 * targets as read, in request order (read only when the canary is in sync).
 */
export function precheckRefusal(canary: PendingChanges, targets: readonly PendingChanges[]): PrecheckRefusal | null {
  if (!canaryInSync(canary)) return null;
  const withChanges = targets
    .flatMap((t) => (t.readable && changesOf(t.counts) > 0 ? [{ instanceId: t.instanceId, instanceName: t.instanceName, changes: changesOf(t.counts), counts: t.counts }] : []))
    .map((t, order) => ({ t, order }))
    .sort((a, b) => b.t.changes - a.t.changes || a.order - b.order)
    .map(({ t }) => t);
  const unread = targets.flatMap((t) => (t.readable ? [] : [{ instanceId: t.instanceId, instanceName: t.instanceName }]));
  const insist = `or send allowInSyncCanary: true to start anyway (the rollout then ends aborted, its canary skipped)`;
  const nothing = `The canary ${canary.instanceName} has nothing to change in the selected sections, so the rollout would be aborted with nothing verified`;
  const refusal = { targetsWithChanges: withChanges, unreadTargets: unread, suggestedCanaryInstanceId: withChanges[0]?.instanceId ?? null };
  if (withChanges.length) {
    const suggested = withChanges[0];
    return {
      code: 'canary_in_sync',
      message:
        `${nothing}. ${withChanges.length} of ${targets.length} targets have changes: ${named(withChanges.map((t) => `${t.instanceName} (${t.changes} ${t.changes === 1 ? 'change' : 'changes'})`))}. ` +
        `Use one of them as the canary, e.g. canaryInstanceId ${suggested.instanceId} (${suggested.instanceName}, the most changes), ${insist}.`,
      ...refusal,
    };
  }
  if (unread.length) {
    return {
      code: 'canary_in_sync',
      message:
        `${nothing}, and none of the targets that could be read has changes; ${unread.length} could not be read: ${named(unread.map((t) => t.instanceName))}. ` +
        `Check those instances (POST /instances/{id}/test) and start again, ${insist}.`,
      ...refusal,
    };
  }
  return {
    code: 'fleet_in_sync',
    message: `Nothing to roll out: the canary ${canary.instanceName} and ${targets.length === 1 ? 'its target' : `all ${targets.length} targets`} already match the desired configuration in the selected sections. Start anyway by sending allowInSyncCanary: true (the rollout then ends aborted, its canary skipped).`,
    ...refusal,
  };
}

function named(names: string[]): string {
  const shown = names.slice(0, PRECHECK_NAMED_MAX);
  return names.length > PRECHECK_NAMED_MAX ? `${shown.join(', ')} and ${names.length - PRECHECK_NAMED_MAX} more` : shown.join(', ');
}
