import { workerHeartbeatFile } from '../../../src/platform/worker-heartbeat';

describe('worker heartbeat file', () => {
  it('is one file per host, so scaled-out containers on one data volume each check their own worker', () => {
    expect(workerHeartbeatFile('3f2a9c1d0b7e')).toBe('worker.3f2a9c1d0b7e.heartbeat');
    expect(workerHeartbeatFile('worker-2')).not.toBe(workerHeartbeatFile('worker-1'));
    expect(workerHeartbeatFile('a/b c')).toBe('worker.a_b_c.heartbeat');
  });
});
