import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FleetFileError, loadFleet, type FleetProblem } from '../../../../src/cli/fleet/load';

describe('loadFleet', () => {
  let dir: string;
  const write = (name: string, text: string) => writeFile(path.join(dir, name), text);
  const problemsOf = async (file: string, options: { allowInlineSecrets?: boolean } = {}): Promise<string[]> => {
    try {
      await loadFleet(file, { cwd: dir, ...options });
    } catch (error) {
      if (error instanceof FleetFileError) return error.problems.map((p: FleetProblem) => `${p.file}:${p.line}:${p.column}: ${p.message}`);
      throw error;
    }
    return [];
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-load-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('merges includes (relative to the including file) and honours anchors, aliases and merge keys', async () => {
    await write('arrgo.yaml', 'include: [sub/more.yaml]\nx-base: &base\n  type: movie_app\n  apiKey: !env KEY_A\ninstances:\n  - name: a\n    baseUrl: http://127.0.0.1:1\n    <<: *base\n    tags: &tags [x, y]\n');
    await writeFileDeep('sub/more.yaml', 'instances:\n  - name: b\n    type: series_app\n    baseUrl: http://127.0.0.1:2\n    apiKey: !file ../key.txt\n    tags: [z]\n');
    const fleet = await loadFleet('arrgo.yaml', { cwd: dir });
    expect(fleet.instances).toEqual([
      { name: 'a', type: 'movie_app', baseUrl: 'http://127.0.0.1:1', apiKey: { env: 'KEY_A' }, tags: ['x', 'y'] },
      { name: 'b', type: 'series_app', baseUrl: 'http://127.0.0.1:2', apiKey: { file: '../key.txt' }, tags: ['z'] },
    ]);
    // A !file path is relative to the file it is written in.
    expect(fleet.secretBase.get(fleet.instances[1].apiKey as object)).toBe(path.join(dir, 'sub'));
  });

  it('reports schema problems with file, line and column, an unknown key at the key', async () => {
    await write('bad.yaml', 'instances:\n  - name: a\n    type: movie_app\n    baseUrl: http://x\n    apiKey: !env K\n    colour: blue\nchannels:\n  - name: c\n    kind: webhook\n    url: !env U\n    events: []\n');
    expect(await problemsOf('bad.yaml')).toEqual(['bad.yaml:6:5: instances.0: unknown key colour', 'bad.yaml:11:13: channels.0.events: Array must contain at least 1 element(s)']);
  });

  it('refuses inline secrets unless allowed, and then warns', async () => {
    await write('inline.yaml', 'instances:\n  - name: a\n    type: movie_app\n    baseUrl: http://x\n    apiKey: plain-key-value\n');
    expect(await problemsOf('inline.yaml')).toEqual(['inline.yaml:5:13: instances.0.apiKey: a secret written inline; use !env NAME or !file path, or pass --allow-inline-secrets']);
    const warnings: FleetProblem[] = [];
    const fleet = await loadFleet('inline.yaml', { cwd: dir, allowInlineSecrets: true, warnings });
    expect(fleet.instances[0].apiKey).toBe('plain-key-value');
    expect(warnings.map((w) => w.line)).toEqual([5]);
  });

  it('reports a name declared twice across includes, an include cycle and a missing include', async () => {
    await write('a.yaml', 'include: [b.yaml, missing.yaml]\ndatabases:\n  - name: d\n    source: { local: /x }\n');
    await write('b.yaml', 'include: [a.yaml]\ndatabases:\n  - name: d\n    source: { local: /y }\n');
    expect(await problemsOf('a.yaml')).toEqual([
      'b.yaml:3:11: databases "d" is declared twice (first at a.yaml:3:11)',
      'b.yaml:1:11: include cycle: a.yaml -> b.yaml -> a.yaml',
      'a.yaml:1:19: cannot read missing.yaml',
    ]);
  });

  it('reports an alias without its anchor, and aliases past the expansion guard, at the alias', async () => {
    await write('alias.yaml', 'instances:\n  - name: a\n    type: movie_app\n    baseUrl: http://x\n    apiKey: *k\n');
    expect(await problemsOf('alias.yaml')).toEqual(['alias.yaml:5:13: Unresolved alias (the anchor must be set before the alias): k']);
    await write('many.yaml', `x-key: &k K\nx-many: [${Array.from({ length: 1000 }, () => '*k').join(', ')}]\n`);
    expect(await problemsOf('many.yaml')).toEqual(['many.yaml:2:10: Excessive alias count indicates a resource exhaustion attack']);
  });

  it('reports YAML syntax errors with their position', async () => {
    await write('syntax.yaml', 'instances:\n  - name: [a\n');
    const problems = await problemsOf('syntax.yaml');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(/^syntax\.yaml:\d+:\d+: /);
  });

  async function writeFileDeep(name: string, text: string) {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await write(name, text);
  }
});
