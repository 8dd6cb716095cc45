import { driftCheckOutboxEntry, notificationOutboxEntry, OUTBOX_STALE_SECONDS, outboxRetryDelayMs, pcdPullOutboxEntry, refGuideSyncOutboxEntry } from '../../../src/domain/outbox';
import { outboxStalled } from '../../../src/services/outbox/outbox-store';

describe('the outbox rules', () => {
  it('backs a failed publish off from 1 s, doubling, to at most a minute', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map(outboxRetryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it('keys every entry by the idempotency key of its effect', () => {
    const event = { id: 'drift:7:1795780811000' } as Parameters<typeof notificationOutboxEntry>[0];
    expect(notificationOutboxEntry(event, 'instance:7')).toEqual({ id: 'notification:drift:7:1795780811000', kind: 'notification', payload: { event, subjectKey: 'instance:7' } });
    // One pending check per instance, whatever database's edit queued it.
    expect(driftCheckOutboxEntry(7, 1).id).toBe(driftCheckOutboxEntry(7, 2).id);
    expect([pcdPullOutboxEntry(3).id, refGuideSyncOutboxEntry(3).id]).toEqual(['pcd-pull:3', 'ref-guide-sync:3']);
  });

  it('calls a backlog stalled once its oldest entry waited a minute', () => {
    expect(OUTBOX_STALE_SECONDS).toBe(60);
    expect(outboxStalled({ backlog: 0, oldestAgeSeconds: 0 })).toBe(false);
    expect(outboxStalled({ backlog: 4, oldestAgeSeconds: 59 })).toBe(false);
    expect(outboxStalled({ backlog: 1, oldestAgeSeconds: 60 })).toBe(true);
  });
});
