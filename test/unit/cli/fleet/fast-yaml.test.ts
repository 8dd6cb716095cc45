import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseDocument, type ScalarTag } from 'yaml';
import { fastYamlValue, YAML_MAX_ALIAS_COUNT } from '../../../../src/cli/fleet/fast-yaml';
import { FleetFileError, loadFleet } from '../../../../src/cli/fleet/load';
import { FleetFileSchema } from '../../../../src/cli/fleet/schema';

// The loader's `yaml` parse, observed: a valid file must not need it, a problem must.
jest.mock('yaml', () => {
  const actual = jest.requireActual('yaml');
  return { ...actual, parseDocument: jest.fn(actual.parseDocument) };
});
const yamlParses = parseDocument as jest.MockedFunction<typeof parseDocument>;

const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'fleet');
const SECRET_TAGS = [
  { tag: '!env', resolve: (value: string) => ({ env: value }), identify: () => false },
  { tag: '!file', resolve: (value: string) => ({ file: value }), identify: () => false },
] as unknown as ScalarTag[];

/** What the loader read before the fast path: `yaml`'s value, or undefined where it reports a problem or throws. */
function yamlValue(text: string): unknown {
  const doc = jest.requireActual('yaml').parseDocument(text, { customTags: SECRET_TAGS, merge: true, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length || doc.warnings.length) return undefined;
  try {
    return doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT }) ?? {};
  } catch {
    return undefined;
  }
}

/** Every mapping's keys in order (toEqual ignores order; the plan prints in it). */
function keyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keyOrder);
  if (value && typeof value === 'object') return Object.entries(value).map(([k, v]) => [k, keyOrder(v)]);
  return value;
}

/** The fast value where it has one: always `yaml`'s, keys in the same order. */
function expectAgreement(text: string): unknown {
  const fast = fastYamlValue(text);
  if (fast !== undefined) {
    const reference = yamlValue(text);
    expect({ text, accepted: reference !== undefined }).toEqual({ text, accepted: true });
    expect({ text, value: fast }).toEqual({ text, value: reference });
    expect(keyOrder(fast)).toEqual(keyOrder(reference));
  }
  return fast;
}

/** A fleet file of `size` instances written as people write them: defaults in an anchor, merge keys, aliases, both secret tags. */
function generatedFleet(size: number): string {
  const lines = [
    '# yaml-language-server: $schema=http://127.0.0.1:7979/api/v1/fleet/schema',
    'version: 1',
    'include: [more/channels.yaml]',
    'x-movies: &movies',
    '  type: movie_app',
    '  sync:',
    '    - database: sample',
    '      qualityProfiles: [Movies 1080p, "Movies 4K"]',
    "      delayProfile: 'Standard'",
    '      naming: Standard',
    '      deleteUnmanaged: false',
    'x-tags: &tags [bench, "group: a", 1080p, 4k]',
    'databases:',
    '  - name: sample',
    '    source: { local: /srv/pcd }',
    '  - name: remote',
    '    source:',
    '      git: https://git.example.org/pcd.git',
    '      branch: dev',
    '      token: !file secrets/token.txt',
    'settings:',
    '  driftPolling: { enabled: true, intervalMinutes: 0x3C }',
    '  snapshots:',
    '    maxPerDatabase: 50',
    '    retentionDays: 1e1',
    'instances:',
  ];
  for (let i = 0; i < size; i++) {
    lines.push(`  - name: radarr-${i}`, '    <<: *movies', `    baseUrl: http://127.0.0.1:${40_000 + i}`, `    apiKey: !env ARRGO_INSTANCE_RADARR_${i}_API_KEY`);
    if (i % 3 === 0) lines.push('    tags: *tags');
    else if (i % 3 === 1) lines.push(`    tags: [group-${i % 10}, 'quoted ''${i}''']`, '    enabled: False');
    else lines.push('    tags:', `      - >-`, `        folded`, `        tag ${i}`, '    enabled: true  # a comment');
  }
  return `${lines.join('\n')}\n`;
}

const CHANNELS = 'channels:\n  - name: ops\n    kind: webhook\n    url: !env OPS_URL\n    secret: !file ../secrets/hmac.txt\n    events: [drift.detected, sync.failed]\n';

describe('fastYamlValue', () => {
  it("gives yaml's value for the fleet fixtures and a generated 200-instance file (anchors, merge keys, aliases, tags)", async () => {
    for (const name of (await readdir(FIXTURES)).filter((f) => f.endsWith('.yaml'))) {
      expect(expectAgreement(await readFile(path.join(FIXTURES, name), 'utf8'))).toBeDefined();
    }
    const generated = expectAgreement(generatedFleet(200)) as { instances: { name: string; type: string; apiKey: unknown; enabled?: boolean; tags: string[] }[] };
    expect(generated.instances).toHaveLength(200);
    expect(generated.instances[2]).toMatchObject({ name: 'radarr-2', type: 'movie_app', apiKey: { env: 'ARRGO_INSTANCE_RADARR_2_API_KEY' }, enabled: true, tags: ['folded tag 2'] });
    expect(generated.instances[1]).toMatchObject({ enabled: false, tags: ['group-1', "quoted '1'"] });
  });

  it('agrees with yaml on every input it accepts, and accepts the ordinary ones', () => {
    const accepted = [
      'a: 0x1F', 'a: 0o17', 'a: 017', 'a: +1', 'a: .5', 'a: 1.', 'a: 1e3', 'a: .inf', 'a: -.Inf', 'a: ~', 'a: Null', 'a: TRUE', 'a: True', 'a: -0',
      'a: 1_000', 'a: yes', 'a: on', 'a: 0b101', 'a: 1:20', 'a: 2001-12-14', 'a: 0X1F', 'a: 4k', 'a: 1080p', 'a: 1.2.3', 'a: 1e', 'a: 0o8',
      'a: 99999999999999999999', 'a: 1e308', 'a: 1e-400', 'a:', 'a: !env', 'a: !env "X Y"', "a: !file 'x.txt' # c",
      '---\na: 1\n...\n', '\ufeffa: 1', 'a: 1\r\nb: 2\r\n', 'a:\n  -\t1', 'a: \t1', '1: a', 'true: a',
      'a: "\\x41\\u263A\\n\\t\\/"', "a: 'it''s'", 'a: "multi\n  line"', 'a: plain\n  multi\n\n  line', 'a: >\n  folded\n  text\n\n  para\n', 'a: |\n  lit\n  text\n',
      'a: |+\n  keep\n\n', 'a: >-\n  strip\n', 'a: |2\n   indented\n', 'a: "trail  "', 'a: x   ', 'a: "\\\n  cont"', 'a: "esc \\_ \\N \\L \\P"', 'a: b:c', 'a: http://x:1/y?z#w',
      'b: &x 1\na: *x', 'b: &x [1]\na: *x', 'b: &x 1\nb2: &x 2\na: *x', 'x: &t [a]\nt: &t [b]\nu: *t', 'a: &k !env X\nb: *k',
      'b: &x\n  c: 1\na:\n  <<: *x\n  d: 2', 'b: &x\n  c: 1\na:\n  d: 2\n  <<: *x', 'b: &x\n  c: 1\na:\n  <<: *x\n  c: 2', 'b: &x\n  c: 1\na:\n  c: 2\n  <<: *x',
      'b: &x {c: 1, d: 1}\ne: &y {c: 2, f: 2}\na:\n  <<: [*x, *y]', 'a:\n  <<: {c: 1}\n  d: 2', 'a:\n  "<<": {c: 1}', '__proto__: {a: 1}', 'a: [1, 2] # c',
    ];
    for (const text of accepted) expect({ text, fast: expectAgreement(text) !== undefined }).toEqual({ text, fast: true });
  });

  it("leaves to yaml what the two read differently, and yaml's problems", () => {
    const left = [
      // yaml reads these otherwise (or refuses them) where js-yaml would give a value
      '%YAML 1.1\n---\na: yes',
      '%TAG !e! tag:example.com:\n---\na: !e!x y',
      'a: !!float 1',
      'a: !!str 12',
      'a: !<!env> X',
      'a: 1e400',
      'a: -1e400',
      `a: ${'9'.repeat(400)}`,
      `a: 0x${'F'.repeat(300)}`,
      'b: &x: 1\na: *x:',
      'a: &a [x]\nb: &b [*a, *a]\nc: [*b, *b]',
      `a: &a x\nb: [${Array.from({ length: 1000 }, () => '*a').join(', ')}]`,
      // yaml gives a value where js-yaml refuses
      '',
      '# only a comment',
      'a: !!binary aGVsbG8=',
      '? [a]\n: 1',
      // refused by both
      'a: 1\na: 2',
      'a: [b\n',
      'a: *b',
      'a: !foo x',
      'a: !env [x]',
      '\ta: 1',
      'a: 1\n---\nb: 2',
    ];
    for (const text of left) expect({ text, fast: fastYamlValue(text) }).toEqual({ text, fast: undefined });
    // An anchor and 999 aliases are yaml's limit, and still read fast.
    expect(expectAgreement(`a: &a x\nb: [${Array.from({ length: 999 }, () => '*a').join(', ')}]`)).toBeDefined();
  });
});

describe('loadFleet with the fast parse', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'fleet-fast-'));
    await mkdir(path.join(dir, 'more'));
    yamlParses.mockClear();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("reads a valid fleet and its include without yaml's parse, to what yaml's parse gives", async () => {
    const main = generatedFleet(200);
    await writeFile(path.join(dir, 'arrgo.yaml'), main);
    await writeFile(path.join(dir, 'more', 'channels.yaml'), CHANNELS);
    const fleet = await loadFleet('arrgo.yaml', { cwd: dir });
    expect(yamlParses).not.toHaveBeenCalled();

    const mainContent = FleetFileSchema.parse(yamlValue(main));
    const channelsContent = FleetFileSchema.parse(yamlValue(CHANNELS));
    expect(fleet.instances).toEqual(mainContent.instances);
    expect(keyOrder(fleet.instances)).toEqual(keyOrder(mainContent.instances));
    expect(fleet.databases).toEqual(mainContent.databases);
    expect(fleet.channels).toEqual(channelsContent.channels);
    expect(fleet.settings).toEqual({ driftPolling: { enabled: true, intervalMinutes: 60 }, snapshots: { maxPerDatabase: 50, retentionDays: 10 } });
    expect(fleet.instances[0]).toEqual({
      name: 'radarr-0',
      type: 'movie_app',
      sync: [{ database: 'sample', qualityProfiles: ['Movies 1080p', 'Movies 4K'], delayProfile: 'Standard', naming: 'Standard', deleteUnmanaged: false }],
      baseUrl: 'http://127.0.0.1:40000',
      apiKey: { env: 'ARRGO_INSTANCE_RADARR_0_API_KEY' },
      tags: ['bench', 'group: a', '1080p', '4k'],
    });
    // A !file path stays relative to the file that writes it.
    expect(fleet.secretBase.get(fleet.channels[0].secret as object)).toBe(path.join(dir, 'more'));
    expect(fleet.secretBase.get((fleet.databases[1].source as { token: object }).token)).toBe(dir);
  });

  it("places problems found after the fast parse with yaml's positions: a name declared twice across an include, an inline secret", async () => {
    await writeFile(path.join(dir, 'arrgo.yaml'), 'include: [more/dup.yaml]\ninstances:\n  - name: a\n    type: movie_app\n    baseUrl: http://x\n    apiKey: !env K\n');
    await writeFile(path.join(dir, 'more', 'dup.yaml'), '# the same name again\ninstances:\n  - type: movie_app\n    name: a\n    baseUrl: http://y\n    apiKey: inline-key\n');
    const error = await loadFleet('arrgo.yaml', { cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FleetFileError);
    expect((error as FleetFileError).message.split('\n')).toEqual([
      `${path.join('more', 'dup.yaml')}:6:13: instances.0.apiKey: a secret written inline; use !env NAME or !file path, or pass --allow-inline-secrets`,
      `${path.join('more', 'dup.yaml')}:4:11: instances "a" is declared twice (first at arrgo.yaml:3:11)`,
    ]);
    expect(yamlParses).toHaveBeenCalledTimes(2);
  });

  it("reads a file with a schema problem again with yaml, and reports it where it is", async () => {
    await writeFile(path.join(dir, 'bad.yaml'), 'instances:\n  - name: a\n    type: movie_app\n    baseUrl: http://x\n    apiKey: !env K\n    colour: blue\n');
    const error = await loadFleet('bad.yaml', { cwd: dir }).catch((e: unknown) => e);
    expect((error as FleetFileError).message).toBe('bad.yaml:6:5: instances.0: unknown key colour');
    expect(yamlParses).toHaveBeenCalledTimes(1);
  });
});
