export default async function globalTeardown(): Promise<void> {
  for (const step of (globalThis.__ARRGO_TEARDOWN__ ?? []).reverse()) {
    try {
      await step();
    } catch (error) {
      process.stderr.write(`[test teardown] ${(error as Error).message}\n`);
    }
  }
}
