/**
 * A wait of `ms` that `wake()` ends at once (a later call does nothing): a batch gathers work for a
 * few milliseconds unless it is told that no more will come.
 */
export function wakeableDelay(ms: number): { done: Promise<void>; wake: () => void } {
  let wake!: () => void;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(() => wake(), ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { done, wake };
}
