/**
 * At most `size` tasks run at a time; the others wait and start in the order they asked (first come
 * first served), each as soon as a running one settles, fulfilled or not.
 */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!(Number.isInteger(size) && size > 0)) throw new RangeError('slots: size must be a positive integer');
    this.free = size;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
