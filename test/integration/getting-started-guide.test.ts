import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { startArrgo, type Harness } from '../helpers/harness';
import { freePort } from '../setup/ports';
import { guideSteps, jsonDocuments, type GuideBlock } from '../helpers/guide';

/**
 * docs/getting-started.md cannot rot: its requests run here, in order, against the real service,
 * worker, Temporal and emulators started from the guide's own emulator commands, and every output
 * block the guide shows is compared with what the requests printed.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const GUIDE = path.join(ROOT, 'docs', 'getting-started.md');
const EMULATOR_CLI = path.join(ROOT, 'dist', 'emulators', 'cli.js');

const haveTools = ['curl', 'jq', 'bash'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);
// CI (.ci/run installs them) always runs the guide; a developer machine without the tools skips it.
const describeWithTools = haveTools || process.env.CI ? describe : describe.skip;
if (!haveTools) console.warn('skipping the getting-started guide: it needs curl, jq and bash (.ci/run installs them)');

describeWithTools('docs/getting-started.md', () => {
  let h: Harness;
  const emulators: ChildProcess[] = [];

  beforeAll(async () => {
    h = await startArrgo();
  });
  afterAll(async () => {
    for (const child of emulators) child.kill('SIGTERM');
    await h?.close();
  });

  it('runs every request of the guide against the real service and prints what the guide shows', async () => {
    const { emulatorCommands, settings, preamble, steps } = guideSteps(fs.readFileSync(GUIDE, 'utf8'));
    expect(fs.existsSync(EMULATOR_CLI)).toBe(true); // built by npm test (npm run build)

    // The guide's emulator commands, each on a free port (the guide's port may be taken here).
    const urlOf = new Map<string, string>();
    for (const args of emulatorCommands) {
      const port = await freePort();
      const portIndex = args.indexOf('--port');
      expect(portIndex).toBeGreaterThan(-1);
      urlOf.set(`http://localhost:${args[portIndex + 1]}`, `http://127.0.0.1:${port}`);
      const child = spawn(process.execPath, [EMULATOR_CLI, ...args.map((a, i) => (i === portIndex + 1 ? String(port) : a))], { stdio: ['ignore', 'pipe', 'pipe'] });
      emulators.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d) => String(d).includes('listening') && resolve());
        child.once('exit', (code) => reject(new Error(`emulator ${args.join(' ')} exited with ${code}`)));
      });
    }

    // The settings the guide asks the reader for, pointed at this run's service and emulators.
    const values: Record<string, string> = {};
    for (const [name, value] of settings) {
      if (name === 'ARRGO') values[name] = h.baseUrl;
      else if (name === 'KEY') values[name] = h.apiKey;
      else if (urlOf.has(value)) values[name] = urlOf.get(value)!;
      else throw new Error(`the guide's setting ${name}=${value} is neither arrgo's address, its key, nor an emulator the guide starts`);
    }
    const prelude = ['set -euo pipefail', ...Object.entries(values).map(([k, v]) => `${k}='${v}'`), ...preamble.map((b) => b.code)].join('\n');

    // Every difference is reported at once (later steps still run: they need the earlier ones' effects).
    const differences: string[] = [];
    for (const step of steps) {
      const output = await runBlock(prelude, step.block, step.refused);
      if (!step.expected) continue;
      let actual: unknown[] | null = null;
      try {
        actual = jsonDocuments(output);
      } catch {
        differences.push(`the request at line ${step.block.line} printed something that is not JSON:\n${output}`);
      }
      if (actual && !isDeepStrictEqual(actual, jsonDocuments(step.expected.code))) {
        differences.push(`the output shown at line ${step.expected.line} differs; the request at line ${step.block.line} printed:\n${output}`);
      }
    }
    expect(differences).toEqual([]);
  });
});

/** Runs one block in bash (asynchronously: the service under test answers from this process). */
async function runBlock(prelude: string, block: GuideBlock, refused: boolean): Promise<string> {
  const child = spawn('bash', ['-c', `${prelude}\n${block.code}`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  if (refused) {
    if (code === 0) throw new Error(`the guide's block at line ${block.line} shows a refusal, but its request succeeded:\n${stdout}`);
  } else if (code !== 0) {
    throw new Error(`the guide's block at line ${block.line} failed (exit ${code}):\n${block.code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
  }
  return stdout;
}
