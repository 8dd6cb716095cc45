import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

/**
 * The build's last step. Production builds run workers from a prebuilt workflow bundle
 * (dist/workflow-bundle.js, written last: build-if-stale.cjs reads its time). Before it, the
 * `arrgo` bin (package.json) is made executable: tsc keeps main.ts's shebang but not a mode.
 */
async function main(): Promise<void> {
  fs.chmodSync(path.resolve(__dirname, '..', 'cli', 'main.js'), 0o755);
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: quietLogger });
  const out = path.resolve(__dirname, '..', 'workflow-bundle.js');
  fs.writeFileSync(out, code);
  process.stdout.write(`workflow bundle written: ${path.relative(process.cwd(), out)} (${Math.round(code.length / 1024)} KiB)\n`);
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: (m: string) => process.stderr.write(m + '\n') };

main().catch((error: unknown) => {
  process.stderr.write(`workflow bundle failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
