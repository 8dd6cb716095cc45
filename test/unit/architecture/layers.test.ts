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

/** Runs the layer check (the rules `npm test` runs) over `dir`'s src and returns its violations. */
async function violations(dir: string): Promise<Violation[]> {
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }));
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

describe('import rules (docs/ARCHITECTURE.md layer table, .dependency-cruiser.cjs)', () => {
  it('the code as it is breaks none of them', async () => {
    expect(await violations(ROOT)).toEqual([]);
  }, 60_000);

  it('a deliberately wrong import fails the check, named by its rule', async () => {
    const dir = tree({
      'src/api/routes/things.ts': "import { em } from '../../persistence/orm';\nexport const things = em;\n",
      'src/persistence/orm.ts': 'export const em = {};\n',
      'src/domain/thing.ts': "import { things } from '../api/routes/things';\nexport const thing = things;\n",
      'src/services/things.ts': "import { run } from '../workflows/things';\nexport const start = run;\n",
      'src/workflows/things.ts': "import { write } from '../activities/things';\nexport const run = write;\n",
      'src/activities/things.ts': "import { start } from '../services/things';\nexport const write = start;\n",
    });
    try {
      const found = (await violations(dir)).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
      expect(found.sort()).toEqual([
        'domain-is-pure: src/domain/thing.ts -> src/api/routes/things.ts',
        'no-circular: src/activities/things.ts -> src/services/things.ts',
        'routes-call-services-only: src/api/routes/things.ts -> src/persistence/orm.ts',
        'services-are-the-door: src/services/things.ts -> src/workflows/things.ts',
        'workflows-import-activities-as-types: src/workflows/things.ts -> src/activities/things.ts',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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
