import { createHmac } from 'node:crypto';
import {
  atDelivery,
  classifyAttempt,
  coalesceDrift,
  discordBody,
  driftEvent,
  driftTransition,
  healthDropped,
  rolloutEvent,
  sourceFailureEvent,
  webhookBody,
  type LinkContext,
} from '../../../src/domain/notifications';
import { sourceFailureText } from '../../../src/domain/pcd/source-failures';
import { refGuideFailureText } from '../../../src/domain/ref-guide';
import { deliveryId, webhookSignature } from '../../../src/services/notifications/signature';
import { parsePrometheusText, sampleValue } from '../../helpers/prometheus';

const links: LinkContext = { publicUrl: 'https://arrgo.example.test', urlBase: '', temporalUiUrl: 'http://127.0.0.1:8233/', namespace: 'default' };
const counts = (drifted: number, missing: number) => ({ drifted, missing, unmanaged: 0 });

describe('drift transitions', () => {
  it('raises detected on entering drifted, missing, unreachable or unauthorized, and resolved on the way back only', () => {
    expect(driftTransition(null, { status: 'in-sync', counts: counts(0, 0) })).toBeNull();
    expect(driftTransition({ status: 'in-sync', counts: counts(0, 0) }, { status: 'drifted', counts: counts(2, 0) })).toBe('drift.detected');
    expect(driftTransition({ status: 'drifted', counts: counts(2, 0) }, { status: 'drifted', counts: counts(3, 0) })).toBeNull(); // same state, other counts
    expect(driftTransition({ status: 'drifted', counts: counts(2, 0) }, { status: 'drifted', counts: counts(2, 1) })).toBe('drift.detected'); // now missing too
    expect(driftTransition({ status: 'drifted', counts: counts(2, 0) }, { status: 'unreachable', counts: counts(2, 0) })).toBe('drift.detected');
    expect(driftTransition({ status: 'unreachable', counts: counts(0, 0) }, { status: 'in-sync', counts: counts(0, 0) })).toBe('drift.resolved');
    expect(driftTransition({ status: 'error', counts: counts(0, 0) }, { status: 'in-sync', counts: counts(0, 0) })).toBeNull();
    expect(driftTransition({ status: 'in-sync', counts: counts(0, 0) }, { status: 'error', counts: counts(0, 0) })).toBeNull();
  });

  it('builds a drift event with a stable id and deep links', () => {
    const at = new Date('2026-11-23T10:00:00Z');
    const input = { instanceId: 3, instanceName: 'radarr-4k', arrType: 'movie_app', previousStatus: 'in-sync', state: { status: 'drifted', counts: counts(2, 1) }, reason: null, checkedAt: at, workflowId: 'arrgo-drift-check-3' };
    const event = driftEvent(links, 'drift.detected', input);
    expect(event).toMatchObject({
      id: `drift:3:${at.getTime()}`,
      title: 'radarr-4k drifted from its desired configuration',
      description: '2 changed and 1 missing entries compared with the desired configuration.',
      links: { api: 'https://arrgo.example.test/api/v1/drift/3', temporal: 'http://127.0.0.1:8233/namespaces/default/workflows/arrgo-drift-check-3' },
    });
    expect(driftEvent(links, 'drift.detected', input).id).toBe(event.id);
    expect(driftEvent({ ...links, publicUrl: null, temporalUiUrl: null }, 'drift.detected', input).links).toEqual({ api: '/api/v1/drift/3', temporal: null });
    // Under URL_BASE, without a public URL, the API path starts with the base.
    expect(driftEvent({ ...links, publicUrl: null, urlBase: '/arrgo' }, 'drift.detected', input).links.api).toBe('/arrgo/api/v1/drift/3');
  });
});

describe('the drift flood guard', () => {
  const t0 = new Date('2026-11-23T10:00:00Z');
  const later = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
  const window = 30 * 60_000;
  it('coalesces repeated drift within the window, never a resolution after told drift', () => {
    expect(coalesceDrift('drift.detected', null, t0, window)).toBe(false);
    expect(coalesceDrift('drift.detected', { type: 'drift.detected', occurredAt: t0 }, later(10), window)).toBe(true);
    expect(coalesceDrift('drift.detected', { type: 'drift.detected', occurredAt: t0 }, later(30), window)).toBe(false);
    expect(coalesceDrift('drift.detected', { type: 'drift.resolved', occurredAt: t0 }, later(1), window)).toBe(false);
    expect(coalesceDrift('drift.detected', { type: 'drift.detected', occurredAt: t0 }, later(1), 0)).toBe(false); // guard off
    expect(coalesceDrift('drift.resolved', { type: 'drift.detected', occurredAt: t0 }, later(1), window)).toBe(false);
    expect(coalesceDrift('drift.resolved', { type: 'drift.resolved', occurredAt: t0 }, later(1), window)).toBe(true);
    expect(coalesceDrift('drift.resolved', null, later(1), window)).toBe(true);
    expect(coalesceDrift('sync.failed', { type: 'drift.detected', occurredAt: t0 }, later(1), window)).toBe(false);
  });
});

describe('delivery outcomes', () => {
  it('retries timeouts, no connection, 408, 429 and 5xx; any other 4xx or a redirect is final', () => {
    expect(classifyAttempt({ status: 204 })).toEqual({ outcome: 'delivered', error: null });
    expect(classifyAttempt({ status: 503 })).toEqual({ outcome: 'retry', error: 'server_error' });
    expect(classifyAttempt({ status: 500 })).toEqual({ outcome: 'retry', error: 'server_error' });
    expect(classifyAttempt({ status: 408 })).toEqual({ outcome: 'retry', error: 'timeout' });
    expect(classifyAttempt({ status: 429 })).toEqual({ outcome: 'retry', error: 'rate_limited' });
    expect(classifyAttempt({ failure: 'timeout' })).toEqual({ outcome: 'retry', error: 'timeout' });
    expect(classifyAttempt({ failure: 'unreachable' })).toEqual({ outcome: 'retry', error: 'unreachable' });
    expect(classifyAttempt({ status: 400 })).toEqual({ outcome: 'rejected', error: 'rejected' });
    expect(classifyAttempt({ status: 404 })).toEqual({ outcome: 'rejected', error: 'rejected' });
    expect(classifyAttempt({ status: 301 })).toEqual({ outcome: 'rejected', error: 'redirect' });
  });

  it('signs `<timestamp>.<body>` with HMAC-SHA256 and derives a stable delivery id', () => {
    const body = JSON.stringify({ a: 1 });
    expect(webhookSignature('s3cret-s3cret-s3cret', 1700000000, body)).toBe(`sha256=${createHmac('sha256', 's3cret-s3cret-s3cret').update(`1700000000.${body}`).digest('hex')}`);
    expect(deliveryId('drift:3:1', 7)).toBe(deliveryId('drift:3:1', 7));
    expect(deliveryId('drift:3:1', 7)).not.toBe(deliveryId('drift:3:1', 8));
    expect(deliveryId('drift:3:1', 7)).toMatch(/^dlv-[0-9a-f]{32}$/);
  });
});

describe('source failures', () => {
  it('say what failed in the pre-authored text, naming a missing branch', () => {
    const at = new Date('2026-11-23T10:00:00Z');
    const pull = sourceFailureEvent(links, { kind: 'pcd', id: 4, name: 'trash', reason: 'branch_not_found', message: sourceFailureText('branch_not_found', 'dev'), workflowId: 'w', runId: 'r', at });
    expect(pull.description).toBe('The pull failed (branch_not_found): The branch "dev" does not exist in the repository; set an existing branch (PATCH with body.branch) and pull again. The database keeps its last cache.');
    const sync = sourceFailureEvent(links, { kind: 'ref-guide', id: 2, name: 'guide', reason: 'fetch_failed', message: refGuideFailureText('fetch_failed', 'main'), workflowId: 'w', runId: 'r', at });
    expect(sync.description).toBe('The sync failed (fetch_failed): The repository could not be fetched (check the URL, branch, network and access rights). The last good cache is kept.');
    // Without a branch (a local source) the generic text stands.
    expect(sourceFailureText('branch_not_found', null)).toBe('The branch does not exist in the repository.');
  });
});

describe('rendering', () => {
  const gate = rolloutEvent(links, { rolloutId: 7, status: 'awaiting_confirmation', arrType: 'movie_app', canaryInstanceName: 'canary', targetCount: 4, workflowId: 'canary-rollout-7', at: new Date('2026-11-23T10:00:00Z'), warning: null });

  it('adds how long a rollout has waited at the gate when it is sent', () => {
    expect(gate.id).toBe('rollout:7:gate');
    const sent = atDelivery(gate, new Date('2026-11-23T11:05:00Z'));
    expect(sent.data.waitedSeconds).toBe(3900);
    expect(sent.fields).toContainEqual({ name: 'Waiting', value: '1h 5m' });
    expect(webhookBody(sent, 'dlv-x')).toEqual({ version: 1, deliveryId: 'dlv-x', event: sent });
  });

  it("describes a rollout's end in aborted or failed by its stored reason", () => {
    const base = { rolloutId: 8, arrType: 'movie_app', canaryInstanceName: 'radarr-1', targetCount: 3, workflowId: 'canary-rollout-8', at: new Date('2026-11-23T10:00:00Z'), warning: null };
    const statusReason = { code: 'gate_declined', text: 'Aborted at the gate by the operator; the 3 remaining instances were left untouched.' };
    const aborted = rolloutEvent(links, { ...base, status: 'aborted', statusReason });
    expect(aborted).toMatchObject({ type: 'rollout.aborted', description: statusReason.text, data: { status: 'aborted', statusReasonCode: 'gate_declined', statusReason: statusReason.text } });
    const failed = rolloutEvent(links, { ...base, status: 'failed', statusReason: { code: 'targets_failed', text: 'Failed: 1 of 3 targets failed (radarr-3: the app instance rejected the request).' } });
    expect(failed.description).toBe('Failed: 1 of 3 targets failed (radarr-3: the app instance rejected the request).');
    // Rollouts that ended before reasons were stored keep the general sentence; a completed one carries none.
    expect(rolloutEvent(links, { ...base, status: 'aborted', statusReason: null }).description).toBe('The rollout was declined at the gate, its canary failed, or it had nothing to change.');
    expect(rolloutEvent(links, { ...base, status: 'completed', statusReason }).data).not.toHaveProperty('statusReason');
  });

  it('renders a Discord embed within Discord limits', () => {
    const long = { ...gate, title: 'x'.repeat(400), fields: Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, value: 'v'.repeat(2000) })) };
    const embed = (discordBody(long).embeds as Record<string, any>[])[0];
    expect(embed.title).toHaveLength(256);
    expect(embed.fields).toHaveLength(25);
    expect(embed.fields[0].value).toHaveLength(1024);
    expect(embed).toMatchObject({ color: 0x3498db, url: 'https://arrgo.example.test/api/v1/canary/rollouts/7', author: { name: 'arrgo' }, footer: { text: 'rollout.awaiting_gate · rollout:7:gate' } });
    expect(embed.description).toContain('[Temporal workflow](http://127.0.0.1:8233/namespaces/default/workflows/canary-rollout-7)');
  });

  it('knows a health drop from a rise or an unknown band', () => {
    expect(healthDropped('healthy', 'attention')).toBe(true);
    expect(healthDropped('attention', 'needs-review')).toBe(true);
    expect(healthDropped('attention', 'healthy')).toBe(false);
    expect(healthDropped('healthy', 'unknown')).toBe(false);
    expect(healthDropped(null, 'needs-review')).toBe(false);
  });
});

describe('the Prometheus text parser of the tests', () => {
  it('parses families, unescapes labels and refuses malformed expositions', () => {
    const text = ['# HELP a_total A counter.', '# TYPE a_total counter', 'a_total{x="q\\"uote\\\\n",y="1"} 3', '# TYPE h histogram', 'h_bucket{le="+Inf"} 2', 'h_sum 0.5', 'h_count 2', ''].join('\n');
    const families = parsePrometheusText(text);
    expect(families.get('a_total')).toMatchObject({ type: 'counter', help: 'A counter.' });
    expect(sampleValue(families, 'a_total', { x: 'q"uote\\n' })).toBe(3);
    expect(sampleValue(families, 'h_count')).toBe(2);
    for (const bad of ['a 1\n', '# TYPE a counter\na{x="1} 1\n', '# TYPE a counter\na one\n', '# TYPE a counter\na 1\na 1\n', '# TYPE a counter\na 1', '# TYPE h histogram\nh_bucket 1\n', '# TYPE a nonsense\n']) {
      expect(() => parsePrometheusText(bad)).toThrow();
    }
  });
});
