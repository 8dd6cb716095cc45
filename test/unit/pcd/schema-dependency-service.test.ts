import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseManifest } from '../../../src/domain/pcd';
import { dependencyDirectory, findSchemaDependency, resolveSchemaDependency } from '../../../src/services/pcd/schema-dependency';
import { makeFixtureSchemaRepo, type FixtureSchemaRepo } from '../../helpers/pcd-fixtures';

const manifest = (dependencies: Record<string, string>) => parseManifest({ name: 'm', version: '1.0.0', arr_types: ['radarr'], dependencies });

describe('finding the schema dependency', () => {
  it('is the Dictionarry schema, or a repository whose name contains "schema", or the only dependency', () => {
    expect(findSchemaDependency(manifest({ 'https://github.com/Dictionarry-Hub/schema': '1.1.0' }))).toEqual({ url: 'https://github.com/Dictionarry-Hub/schema', version: '1.1.0' });
    expect(findSchemaDependency(manifest({ 'https://example.invalid/tools': '2.0.0', 'https://github.com/someone/praxrr-schema.git': '1.3.0' }))).toEqual({
      url: 'https://github.com/someone/praxrr-schema.git',
      version: '1.3.0',
    });
    expect(findSchemaDependency(manifest({ 'https://example.invalid/base-tables': '1.0.0' }))?.version).toBe('1.0.0');
    expect(findSchemaDependency(manifest({ 'https://example.invalid/a': '1', 'https://example.invalid/b': '2' }))).toBeNull();
    expect(findSchemaDependency(manifest({}))).toBeNull();
  });
});

describe('resolving the schema dependency (local git fixture)', () => {
  let repo: FixtureSchemaRepo;
  let dataDir: string;
  beforeAll(() => {
    repo = makeFixtureSchemaRepo();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-deps-'));
  });
  afterAll(() => {
    repo.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('fetches the tag named by the pinned version and gives its ops as the schema layer', async () => {
    const resolved = await resolveSchemaDependency(manifest({ [repo.url]: '1.1.0' }), dataDir, 'auto');
    expect(resolved.source).toBe('dependency');
    expect(resolved.note).toContain('praxrr-schema@1.1.0 (2 ops)');
    expect(resolved.ops.map((o) => ({ layer: o.layer, id: o.id, file: o.file, position: o.position }))).toEqual([
      { layer: 'schema', id: null, file: 'deps/praxrr-schema/ops/0.schema.sql', position: 1 },
      { layer: 'schema', id: null, file: 'deps/praxrr-schema/ops/1.languages.sql', position: 1 },
    ]);
    expect(resolved.ops[0].sql).toContain('CREATE TABLE format_groups');
    expect(resolved.ops[0].sql).not.toContain('unreleased');
    expect(fs.existsSync(path.join(dependencyDirectory(dataDir, repo.url, '1.1.0'), '.git'))).toBe(true);
  });

  it('gives every database pinned to the same version the same clone, even when they pull at once', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => resolveSchemaDependency(manifest({ [repo.url]: '1.0.0' }), dataDir, 'auto')));
    for (const r of [a, b, c]) expect(r).toMatchObject({ source: 'dependency', note: expect.stringContaining('praxrr-schema@1.0.0 (1 op)') });
    expect(a.ops).toEqual(b.ops);
    expect(fs.readdirSync(path.join(dataDir, 'pcd-deps')).sort()).toEqual(
      [dependencyDirectory(dataDir, repo.url, '1.0.0'), dependencyDirectory(dataDir, repo.url, '1.1.0')].map((d) => path.basename(d)).sort(),
    );
  });

  it('lets the bundled schema stand in, and says why, when fetching is off, the version does not exist or the URL is not fetchable', async () => {
    expect(await resolveSchemaDependency(manifest({ [repo.url]: '1.0.0' }), dataDir, 'off')).toMatchObject({ source: 'bundled', ops: [], note: expect.stringContaining('PCD_SCHEMA_FETCH=off') });
    expect(await resolveSchemaDependency(manifest({ [repo.url]: '7.7.7' }), dataDir, 'auto')).toMatchObject({ source: 'bundled', note: expect.stringContaining('praxrr-schema@7.7.7 could not be fetched') });
    expect(await resolveSchemaDependency(manifest({ 'ext::sh -c touch% /tmp/pwned/schema': '1.0.0' }), dataDir, 'auto')).toMatchObject({
      source: 'bundled',
      note: expect.stringContaining('is not a git URL and version arrgo fetches'),
    });
    expect(await resolveSchemaDependency(manifest({ [repo.url]: '--upload-pack=evil' }), dataDir, 'auto')).toMatchObject({ source: 'bundled' });
  });
});
