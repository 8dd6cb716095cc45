import { Slots } from '../../../src/services/slots';

/** A task that runs until its `finish` is called (or `fail`), recording when it started. */
function gate(started: string[], name: string) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve(name);
    fail = reject;
  });
  return { task: () => (started.push(name), done), finish: () => finish(), fail: (e: Error) => fail(e) };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('Slots', () => {
  it('runs at most `size` tasks at once, the waiting ones first come first served, also after a failure', async () => {
    const slots = new Slots(2);
    const started: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => gate(started, name));
    const results = [a, b, c, d].map((g) => slots.run(g.task).catch((e: Error) => `failed: ${e.message}`));
    await turn();
    expect(started).toEqual(['a', 'b']);
    b.fail(new Error('b broke'));
    await turn();
    expect(started).toEqual(['a', 'b', 'c']);
    a.finish();
    await turn();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    c.finish();
    d.finish();
    expect(await Promise.all(results)).toEqual(['a', 'failed: b broke', 'c', 'd']);
    // All slots are free again: two new tasks start at once.
    const [e, f] = ['e', 'f'].map((name) => gate(started, name));
    const more = [slots.run(e.task), slots.run(f.task)];
    await turn();
    expect(started.slice(4)).toEqual(['e', 'f']);
    e.finish();
    f.finish();
    await Promise.all(more);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new Slots(0)).toThrow(RangeError);
    expect(() => new Slots(1.5)).toThrow(RangeError);
  });
});
