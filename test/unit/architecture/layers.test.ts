import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as workflows from '../../../src/workflows';
import { WORKFLOW_DEFINITIONS } from '../../../src/workflows/contracts';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs the layer check (the rules `npm test` runs) over `dir`'s src and web (the console) and returns its violations. */
async function violations(dir: string): Promise<Violation[]> {
  let stdout: string;
  const roots = ['src', 'web'].filter((root) => fs.existsSync(path.join(dir, root)));
  try {
    ({ stdout } = await run(process.execPath, [DEPCRUISE, ...roots, '--config', CONFIG, '--output-type', 'json'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    // Violations make depcruise exit non-zero; the report is still on stdout.
    stdout = (error as { stdout?: string }).stdout ?? '';
    if (!stdout) throw error;
  }
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-layers-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** The layer check's violations over a throwaway tree of these files, as `rule: from -> to`, sorted. */
async function violationsIn(files: Record<string, string>): Promise<string[]> {
  const dir = tree(files);
  try {
    return (await violations(dir)).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('import rules (docs/ARCHITECTURE.md layer table, .dependency-cruiser.cjs)', () => {
  it('the code as it is breaks none of them', async () => {
    expect(await violations(ROOT)).toEqual([]);
  }, 60_000);

  it('a deliberately wrong import fails the check, named by its rule', async () => {
    expect(await violationsIn({
      'src/api/routes/things.ts': "import { em } from '../../persistence/orm';\nexport const things = em;\n",
      'src/persistence/orm.ts': 'export const em = {};\n',
      'src/domain/thing.ts': "import { things } from '../api/routes/things';\nexport const thing = things;\n",
      'src/services/things.ts': "import { run } from '../workflows/things';\nexport const start = run;\n",
      'src/workflows/things.ts': "import { write } from '../activities/things';\nexport const run = write;\n",
      'src/activities/things.ts': "import { start } from '../services/things';\nexport const write = start;\n",
    })).toEqual([
      'domain-is-pure: src/domain/thing.ts -> src/api/routes/things.ts',
      'no-circular: src/activities/things.ts -> src/services/things.ts',
      'routes-call-services-only: src/api/routes/things.ts -> src/persistence/orm.ts',
      'services-are-the-door: src/services/things.ts -> src/workflows/things.ts',
      'workflows-import-activities-as-types: src/workflows/things.ts -> src/activities/things.ts',
    ]);
  }, 60_000);
});

describe('Node built-ins in the pure and deterministic layers', () => {
  const IO_BUILTINS = ['fs', 'http', 'https', 'net', 'child_process', 'worker_threads', 'timers'];
  const LAYERS = ['src/domain', 'src/workflows', 'src/workflows/contracts'];

  it('each I/O built-in, with and without `node:`, fails the check in src/domain and src/workflows (contracts included)', async () => {
    const files: Record<string, string> = {};
    const expected: string[] = [];
    for (const layer of LAYERS) {
      for (const builtin of IO_BUILTINS) {
        for (const spelling of [builtin, `node:${builtin}`]) {
          const file = `${layer}/uses-${spelling.replace(':', '-')}.ts`;
          files[file] = `import * as io from '${spelling}';\nexport const used = io;\n`;
          expected.push(`no-io-builtins-in-domain-or-workflows: ${file} -> ${builtin}`);
        }
      }
    }
    // Subpaths and type-only imports count too.
    files['src/domain/uses-fs-promises.ts'] = "import { readFile } from 'node:fs/promises';\nexport const read = readFile;\n";
    files['src/workflows/uses-timers-promises.ts'] = "import type { setTimeout } from 'timers/promises';\nexport type Sleep = typeof setTimeout;\n";
    expected.push('no-io-builtins-in-domain-or-workflows: src/domain/uses-fs-promises.ts -> fs/promises');
    expected.push('no-io-builtins-in-domain-or-workflows: src/workflows/uses-timers-promises.ts -> timers/promises');
    expect(await violationsIn(files)).toEqual(expected.sort());
  }, 60_000);

  it('other built-ins are refused by the layer rule itself, and the layers around them may use I/O', async () => {
    expect(await violationsIn({
      'src/domain/hash.ts': "import { createHash } from 'node:crypto';\nexport const hash = createHash;\n",
      'src/workflows/paths.ts': "import path from 'path';\nexport const join = path.join;\n",
      'src/services/evaluation/regex-runner.ts': "import { Worker } from 'node:worker_threads';\nimport { setTimeout } from 'node:timers/promises';\nexport const run = [Worker, setTimeout];\n",
      'src/activities/files.ts': "import fs from 'fs';\nimport http from 'node:http';\nexport const io = [fs, http];\n",
    })).toEqual(['domain-is-pure: src/domain/hash.ts -> crypto', 'workflows-are-deterministic: src/workflows/paths.ts -> path']);
  }, 60_000);
});

describe('the console and its client (web/, src/client)', () => {
  it('the client imports nothing of arrgo, the console only the client, the browser tests also the emulators\' control client, and nothing imports the console', async () => {
    expect(await violationsIn({
      'src/domain/thing.ts': 'export const x = 1;\n',
      'src/client/index.ts': "import { x } from '../domain/thing';\nexport const y = x;\n",
      'web/src/page.tsx': "import { x } from '../../src/domain/thing';\nimport { y } from '../../src/client';\nexport const z = [x, y];\n",
      'src/services/ui.ts': "import { z } from '../../web/src/page';\nexport const w = z;\n",
      'src/emulators/control-client.ts': 'export class EmulatorControlClient {}\n',
      'web/e2e/journey.spec.ts': "import { x } from '../../src/domain/thing';\nimport { EmulatorControlClient } from '../../src/emulators/control-client';\nimport { y } from '../../src/client';\nexport const z = [x, y, EmulatorControlClient];\n",
    })).toEqual([
      'browser-tests-drive-apps-from-outside: web/e2e/journey.spec.ts -> src/domain/thing.ts',
      'client-stands-alone: src/client/index.ts -> src/domain/thing.ts',
      'console-speaks-through-the-client: web/src/page.tsx -> src/domain/thing.ts',
      'nothing-imports-the-console: src/services/ui.ts -> web/src/page.tsx',
    ]);
  }, 60_000);
});

describe('routes call services only', () => {
  const routesDir = path.join(ROOT, 'src/api/routes');
  it.each(fs.readdirSync(routesDir))('%s reaches no EntityManager, workflow start or schedule', (file) => {
    const text = fs.readFileSync(path.join(routesDir, file), 'utf8');
    expect(text).not.toMatch(/\.orm\b|\.em\b|startWorkflow|executeWorkflow|Schedule\(|\.temporal\b/);
  });
});

describe('workflow contracts', () => {
  it.each(Object.entries(WORKFLOW_DEFINITIONS))('%s is a definition named like its implementation, which the worker exports', (name, definition) => {
    expect(definition.name).toBe(name);
    expect(typeof (workflows as Record<string, unknown>)[name]).toBe('function');
    expect(() => (definition as () => unknown)()).toThrow(`${name} runs in a Temporal worker`);
  });

  it('the worker exports no workflow without a contract', () => {
    const exported = Object.entries(workflows).filter(([, value]) => typeof value === 'function').map(([name]) => name);
    expect(exported.sort()).toEqual(Object.keys(WORKFLOW_DEFINITIONS).sort());
  });
});
