import { driftEvent, type NotificationPayload } from '../../src/domain/notifications';
import { NotificationEvent } from '../../src/persistence/entities';
import { linkContext, publishNotifications, type PublishDeps } from '../../src/services/notifications/publisher';
import { dbKinds, type DbKind } from '../helpers/databases';
import { eventually, startArrgo, type Harness } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/receiver';

/**
 * A polling run publishes its drift transitions in batches (`publishNotifications`): the flood
 * guard and the one-delivery-per-event-and-channel rule hold inside a batch and across batches,
 * exactly as when each event is published alone.
 */
describe.each(dbKinds())('notifications published in a batch on %s', (db: DbKind) => {
  let h: Harness;
  let receiver: Receiver;
  let deps: PublishDeps;

  beforeAll(async () => {
    receiver = await startReceiver();
    h = await startArrgo({ db, env: { NOTIFY_RETRY_INITIAL_INTERVAL_MS: '200', NOTIFY_DRIFT_WINDOW_MINUTES: '30' } });
    const created = await h.post('/notifications/channels', { name: 'batch-hook', kind: 'webhook', url: receiver.url, secret: 'whsec-batch-0123456789', events: ['drift.detected', 'drift.resolved'] });
    expect(created.status).toBe(201);
    deps = { em: h.service.orm.em, temporal: h.service.temporal, config: h.service.config, logger: h.service.logger };
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  const at = Date.parse('2026-01-05T10:00:00.000Z');
  const drift = (type: 'drift.detected' | 'drift.resolved', instanceId: number, offsetMs: number): { event: NotificationPayload; subjectKey: string } => ({
    event: driftEvent(linkContext(h.service.config, null), type, {
      instanceId,
      instanceName: `batch-${instanceId}`,
      arrType: 'movie_app',
      previousStatus: type === 'drift.detected' ? 'in-sync' : 'drifted',
      state: { status: type === 'drift.detected' ? 'drifted' : 'in-sync', counts: { drifted: type === 'drift.detected' ? 1 : 0, missing: 0, unmanaged: 0 } },
      reason: null,
      checkedAt: new Date(at + offsetMs),
      workflowId: null,
    }),
    subjectKey: `instance:${instanceId}`,
  });

  it('coalesces a repeat within the window inside one batch, records each event once, and delivers each told event once', async () => {
    const a1 = drift('drift.detected', 901, 0);
    const a2 = drift('drift.detected', 901, 60_000); // the same subject again, within the window
    const b1 = drift('drift.resolved', 902, 0); // a resolution nobody was told the drift of
    const c1 = drift('drift.detected', 903, 0);
    const first = await publishNotifications(deps, [a1, a2, b1, c1]);
    expect(first.map((r) => [r.eventId, r.coalesced, r.deliveryIds.length])).toEqual([
      [a1.event.id, false, 1],
      [a2.event.id, true, 0],
      [b1.event.id, true, 0],
      [c1.event.id, false, 1],
    ]);

    // A second batch: a retried publish of a1 finds its row and delivery; 903's resolution is told.
    const c2 = drift('drift.resolved', 903, 120_000);
    const second = await publishNotifications(deps, [a1, c2]);
    expect(second.map((r) => [r.eventId, r.coalesced, r.deliveryIds])).toEqual([
      [a1.event.id, false, first[0].deliveryIds],
      [c2.event.id, false, [expect.any(String)]],
    ]);

    const rows = new Map((await h.service.orm.em.fork().find(NotificationEvent, { subjectKey: { $in: ['instance:901', 'instance:902', 'instance:903'] } })).map((e) => [e.id, e]));
    expect(rows.size).toBe(5);
    expect(rows.get(a1.event.id)).toMatchObject({ coalescedInto: null, coalescedCount: 1 });
    expect(rows.get(a2.event.id)).toMatchObject({ coalescedInto: a1.event.id });
    expect(rows.get(b1.event.id)).toMatchObject({ coalescedInto: b1.event.id });
    expect(rows.get(c1.event.id)).toMatchObject({ coalescedInto: null, coalescedCount: 0 });
    expect(rows.get(c2.event.id)).toMatchObject({ coalescedInto: null });

    const told = [a1.event.id, c1.event.id, c2.event.id];
    await eventually(
      async () => receiver.requests.map((r) => r.body?.event?.id as string),
      (ids) => told.every((id) => ids.includes(id)),
      30_000,
    );
    await new Promise((r) => setTimeout(r, 500)); // a second delivery would have arrived by now
    const delivered = receiver.requests.map((r) => r.body.event.id as string).sort();
    expect(delivered).toEqual([...told].sort());
  });
});
