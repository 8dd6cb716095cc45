import fs from 'node:fs';
import path from 'node:path';

/**
 * Real data fetched for the project lives only in ../shared (beside the checkout in CI).
 * Tests that need it skip with a clear message when it is absent.
 */
export const SHARED_DIR = path.resolve(__dirname, '..', '..', '..', 'shared');

export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DIR, ...parts);
}

export function hasShared(...parts: string[]): boolean {
  return fs.existsSync(sharedPath(...parts));
}

/** describe() when the shared data exists, otherwise a skipped describe that says why. */
export function describeWithShared(parts: string[], name: string, fn: () => void): void {
  if (hasShared(...parts)) {
    describe(name, fn);
  } else {
    // fn is not run: its body may read the absent data while jest collects the tests.
    describe.skip(`${name} [skipped: ${path.join('../shared', ...parts)} is absent]`, () => {
      it(`needs ${path.join('../shared', ...parts)}`, () => undefined);
    });
    // eslint-disable-next-line no-console
    console.warn(`skipping "${name}": ${sharedPath(...parts)} is absent (it is fetched data kept in ../shared beside the checkout)`);
  }
}
