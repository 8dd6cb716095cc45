import { apiLink, temporalLink } from './links';
import type { LinkContext, NotificationField, NotificationPayload, SubjectKind } from './types';

/** Drift statuses that alert; `error` (not configured, cache not ready) is arrgo's side, not the instance's. */
const ALERTING_DRIFT = new Set(['drifted', 'unreachable', 'unauthorized']);

export interface DriftState {
  status: string;
  counts: { drifted: number; missing: number; unmanaged: number };
}

/** The part of a drift result a transition is about: status, and whether entries are drifted or missing. */
export function driftStateKey(state: DriftState | null): string {
  if (!state || !ALERTING_DRIFT.has(state.status) && state.status !== 'in-sync') return 'none';
  if (state.status !== 'drifted') return state.status;
  return `drifted${state.counts.drifted > 0 ? '+changed' : ''}${state.counts.missing > 0 ? '+missing' : ''}`;
}

/**
 * A drift transition worth telling: into drifted (changed or missing entries), unreachable or
 * unauthorized, or back to in-sync from one of those. Null when nothing changed that alerts.
 */
export function driftTransition(previous: DriftState | null, next: DriftState): 'drift.detected' | 'drift.resolved' | null {
  const before = driftStateKey(previous);
  const after = driftStateKey(next);
  if (before === after) return null;
  if (ALERTING_DRIFT.has(next.status)) return 'drift.detected';
  if (next.status === 'in-sync' && previous && ALERTING_DRIFT.has(previous.status)) return 'drift.resolved';
  return null;
}

function payload(base: Omit<NotificationPayload, 'subject' | 'links'> & { subject: { kind: SubjectKind; id: number | null; name: string | null } }, ctx: LinkContext, apiPath: string, workflowId: string | null): NotificationPayload {
  return { ...base, links: { api: apiLink(ctx, apiPath), temporal: temporalLink(ctx, workflowId) } };
}

const field = (name: string, value: string | number): NotificationField => ({ name, value: String(value) });

/** Builds the drift event of a known transition (the caller compared stored states). */
export function driftEvent(
  ctx: LinkContext,
  type: 'drift.detected' | 'drift.resolved',
  input: { instanceId: number; instanceName: string; arrType: string; previousStatus: string | null; state: DriftState; reason: string | null; checkedAt: Date; workflowId: string | null },
): NotificationPayload {
  const { counts } = input.state;
  const resolved = type === 'drift.resolved';
  const title = resolved
    ? `${input.instanceName} is back in sync`
    : input.state.status === 'drifted'
      ? `${input.instanceName} drifted from its desired configuration`
      : `${input.instanceName} is ${input.state.status}`;
  const description = resolved
    ? 'The last drift check found the instance as arrgo configured it.'
    : input.state.status === 'drifted'
      ? `${counts.drifted} changed and ${counts.missing} missing entries compared with the desired configuration.`
      : `The drift check could not read the instance (${input.reason ?? input.state.status}).`;
  return payload(
    {
      id: `drift:${input.instanceId}:${input.checkedAt.getTime()}`,
      type,
      severity: resolved ? 'success' : 'warning',
      title,
      description,
      occurredAt: input.checkedAt.toISOString(),
      subject: { kind: 'instance', id: input.instanceId, name: input.instanceName },
      fields: [field('Instance', input.instanceName), field('Status', input.state.status), field('Drifted', counts.drifted), field('Missing', counts.missing), field('Unmanaged', counts.unmanaged)],
      data: { instanceId: input.instanceId, arrType: input.arrType, status: input.state.status, previousStatus: input.previousStatus, reason: input.reason, counts },
    },
    ctx,
    `/drift/${input.instanceId}`,
    input.workflowId,
  );
}

export type RolloutEventStatus = 'awaiting_confirmation' | 'completed' | 'failed' | 'aborted';

/**
 * A rollout at the gate or at its end. An end in failed or aborted is described by the rollout's
 * stored reason (pre-authored, src/domain/canary/status-reason.ts); rollouts recorded before reasons
 * were stored fall back to a general sentence.
 */
export function rolloutEvent(
  ctx: LinkContext,
  input: {
    rolloutId: number;
    status: RolloutEventStatus;
    arrType: string;
    canaryInstanceName: string;
    targetCount: number;
    workflowId: string;
    at: Date;
    warning: string | null;
    statusReason?: { code: string; text: string } | null;
  },
): NotificationPayload {
  const type = input.status === 'awaiting_confirmation' ? 'rollout.awaiting_gate' : (`rollout.${input.status}` as const);
  const titles = {
    'rollout.awaiting_gate': `Rollout ${input.rolloutId} is waiting at the gate`,
    'rollout.completed': `Rollout ${input.rolloutId} completed`,
    'rollout.failed': `Rollout ${input.rolloutId} failed`,
    'rollout.aborted': `Rollout ${input.rolloutId} was aborted`,
  };
  const descriptions = {
    'rollout.awaiting_gate': `The canary ${input.canaryInstanceName} was synced; ${input.targetCount} more instances wait for a human to proceed or abort.`,
    'rollout.completed': `The change reached the canary ${input.canaryInstanceName} and ${input.targetCount} more instances.`,
    'rollout.failed': 'The rollout stopped with failures; see its results.',
    'rollout.aborted': 'The rollout was declined at the gate, its canary failed, or it had nothing to change.',
  };
  const severity = { 'rollout.awaiting_gate': 'info', 'rollout.completed': 'success', 'rollout.failed': 'danger', 'rollout.aborted': 'warning' } as const;
  const reason = type === 'rollout.failed' || type === 'rollout.aborted' ? (input.statusReason ?? null) : null;
  const description = reason ? reason.text : input.warning && type === 'rollout.awaiting_gate' ? `${descriptions[type]} ${input.warning}` : descriptions[type];
  return payload(
    {
      id: type === 'rollout.awaiting_gate' ? `rollout:${input.rolloutId}:gate` : `rollout:${input.rolloutId}:${input.status}`,
      type,
      severity: severity[type],
      title: titles[type],
      description,
      occurredAt: input.at.toISOString(),
      subject: { kind: 'rollout', id: input.rolloutId, name: null },
      fields: [field('Canary', input.canaryInstanceName), field('Targets', input.targetCount), field('Status', input.status)],
      data: {
        rolloutId: input.rolloutId,
        arrType: input.arrType,
        status: input.status,
        ...(type === 'rollout.awaiting_gate' ? { waitingSince: input.at.toISOString() } : {}),
        ...(reason ? { statusReasonCode: reason.code, statusReason: reason.text } : {}),
      },
    },
    ctx,
    `/canary/rollouts/${input.rolloutId}`,
    input.workflowId,
  );
}

export function syncRunEvent(
  ctx: LinkContext,
  input: { runId: number; previewId: number | null; status: 'failed' | 'partial'; instanceId: number | null; instanceName: string; arrType: string; trigger: string; error: string | null; workflowId: string; at: Date },
): NotificationPayload {
  return payload(
    {
      id: `sync-run:${input.runId}:${input.status}`,
      type: 'sync.failed',
      severity: input.status === 'failed' ? 'danger' : 'warning',
      title: input.status === 'failed' ? `Sync of ${input.instanceName} failed` : `Sync of ${input.instanceName} was partial`,
      description: input.error ?? (input.status === 'failed' ? 'Nothing was written.' : 'Some changes were written before it stopped.'),
      occurredAt: input.at.toISOString(),
      subject: { kind: 'sync-run', id: input.runId, name: input.instanceName },
      fields: [field('Instance', input.instanceName), field('Status', input.status), field('Trigger', input.trigger)],
      data: { runId: input.runId, instanceId: input.instanceId, arrType: input.arrType, status: input.status, trigger: input.trigger },
    },
    ctx,
    input.previewId !== null ? `/sync/previews/${input.previewId}` : '/sync-history',
    input.workflowId,
  );
}

const BAND_ORDER = ['needs-review', 'attention', 'healthy'];

/** A drop: from a scored band to a lower one (unknown is not a drop: nothing was scored). */
export function healthDropped(previous: string | null, next: string): boolean {
  const from = previous ? BAND_ORDER.indexOf(previous) : -1;
  const to = BAND_ORDER.indexOf(next);
  return from >= 0 && to >= 0 && to < from;
}

export function healthDropEvent(ctx: LinkContext, input: { instanceId: number; instanceName: string; from: string; to: string; score: number | null; at: Date }): NotificationPayload {
  return payload(
    {
      id: `health:${input.instanceId}:${input.at.getTime()}`,
      type: 'health.dropped',
      severity: input.to === 'needs-review' ? 'danger' : 'warning',
      title: `Configuration health of ${input.instanceName} dropped to ${input.to}`,
      description: `The health band went from ${input.from} to ${input.to}${input.score === null ? '' : ` (score ${input.score})`}.`,
      occurredAt: input.at.toISOString(),
      subject: { kind: 'instance', id: input.instanceId, name: input.instanceName },
      fields: [field('Instance', input.instanceName), field('From', input.from), field('To', input.to), ...(input.score === null ? [] : [field('Score', input.score)])],
      data: { instanceId: input.instanceId, from: input.from, to: input.to, score: input.score },
    },
    ctx,
    `/config-health/${input.instanceId}`,
    null,
  );
}

export function sourceFailureEvent(
  ctx: LinkContext,
  input: { kind: 'pcd' | 'ref-guide'; id: number; name: string; reason: string; message: string; workflowId: string; runId: string; at: Date },
): NotificationPayload {
  const pcd = input.kind === 'pcd';
  return payload(
    {
      id: `${pcd ? 'pcd-pull' : 'ref-guide-sync'}:${input.id}:${input.runId}`,
      type: pcd ? 'pcd.pull_failed' : 'ref_guide.sync_failed',
      severity: 'danger',
      title: pcd ? `Pull of PCD database ${input.name} failed` : `Sync of reference guide ${input.name} failed`,
      description: pcd ? `The pull failed (${input.reason}): ${input.message} The database keeps its last cache.` : `The sync failed (${input.reason}): ${input.message} The last good cache is kept.`,
      occurredAt: input.at.toISOString(),
      subject: { kind: pcd ? 'database' : 'ref-guide-source', id: input.id, name: input.name },
      fields: [field(pcd ? 'Database' : 'Source', input.name), field('Reason', input.reason)],
      data: { [pcd ? 'databaseId' : 'sourceId']: input.id, reason: input.reason },
    },
    ctx,
    pcd ? `/databases/${input.id}` : `/ref-guide/sources/${input.id}`,
    input.workflowId,
  );
}

export function testEvent(ctx: LinkContext, input: { channelId: number; channelName: string; nonce: string; at: Date }): NotificationPayload {
  return payload(
    {
      id: `test:${input.channelId}:${input.nonce}`,
      type: 'test',
      severity: 'info',
      title: 'arrgo test notification',
      description: `If you can read this, the channel ${input.channelName} works.`,
      occurredAt: input.at.toISOString(),
      subject: { kind: 'channel', id: input.channelId, name: input.channelName },
      fields: [field('Channel', input.channelName)],
      data: { channelId: input.channelId },
    },
    ctx,
    `/notifications/channels/${input.channelId}`,
    null,
  );
}
