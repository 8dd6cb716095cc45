import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadPcdRepository, PCD_SCHEMA_DEPENDENCY, SCHEMA_VERSION, type PcdFile, type PcdManifest, type PcdOp } from '../../domain/pcd';
import type { PcdSchemaSource } from '../../persistence/entities';
import { syncRepository } from '../git';
import { readRepositoryFiles } from './source-files';

export interface SchemaResolution {
  source: PcdSchemaSource;
  note: string;
  /** The dependency's ops (layer schema) when it was fetched; empty when the bundled schema stands in. */
  ops: PcdOp[];
}

/** The manifest's schema dependency: a repository whose name contains "schema", else its only dependency. */
export function findSchemaDependency(manifest: PcdManifest): { url: string; version: string } | null {
  const entries = Object.entries(manifest.dependencies);
  const named =
    entries.find(([url]) => url.replace(/\.git$/i, '').replace(/\/+$/, '').toLowerCase() === PCD_SCHEMA_DEPENDENCY.toLowerCase()) ??
    entries.find(([url]) => repositoryName(url).toLowerCase().includes('schema')) ??
    (entries.length === 1 ? entries[0] : undefined);
  return named ? { url: named[0], version: String(named[1]) } : null;
}

/**
 * Resolves the schema layer of a database. When the manifest names a schema dependency, it is
 * fetched at its pinned version, as Profilarr does: the git tag (or branch) named by the version
 * (`1.1.0`, else `v1.1.0`), cloned once per URL and version into DATA_DIR/pcd-deps. Its ops/ files
 * become the schema layer. The bundled schema stands in when the manifest names no dependency,
 * when fetching is switched off (PCD_SCHEMA_FETCH=off), or when the dependency cannot be fetched
 * or has no ops; the note says which.
 */
export async function resolveSchemaDependency(manifest: PcdManifest, dataDir: string, fetchMode: 'auto' | 'off' = 'auto'): Promise<SchemaResolution> {
  const dependency = findSchemaDependency(manifest);
  const bundled = (note: string): SchemaResolution => ({ source: 'bundled', note, ops: [] });
  if (!dependency) return bundled(`The manifest declares no schema dependency; the bundled PCD schema ${SCHEMA_VERSION} is used.`);
  const { url, version } = dependency;
  const label = `${displayName(url)}@${version}`;
  if (fetchMode === 'off') {
    return bundled(`Fetching schema dependencies is switched off (PCD_SCHEMA_FETCH=off); the bundled PCD schema ${SCHEMA_VERSION} stands in for ${label}.`);
  }
  if (!FETCHABLE_URL.test(url) || !FETCHABLE_VERSION.test(version)) {
    return bundled(`The schema dependency ${label} is not a git URL and version arrgo fetches; the bundled PCD schema ${SCHEMA_VERSION} stands in.`);
  }
  const dir = dependencyDirectory(dataDir, url, version);
  if (!fs.existsSync(path.join(dir, '.git'))) fs.rmSync(dir, { recursive: true, force: true });
  if (!fs.existsSync(path.join(dir, '.git')) && !(await fetchPinned(url, version, dir))) {
    return bundled(`The schema dependency ${label} could not be fetched; the bundled PCD schema ${SCHEMA_VERSION} stands in (tried the tag or branch ${version}, then v${version}).`);
  }
  const ops = schemaOps(repositoryName(url), readRepositoryFiles(dir).ops);
  if (ops.length === 0) {
    return bundled(`The schema dependency ${label} has no ops/ files; the bundled PCD schema ${SCHEMA_VERSION} stands in.`);
  }
  return {
    source: 'dependency',
    note: `The schema layer is the dependency ${label} (${ops.length} op${ops.length === 1 ? '' : 's'}); arrgo adds only the tables and seed rows it lacks.`,
    ops,
  };
}

/** What arrgo hands to git: the URL forms it accepts for sources, and a plain tag or branch name. */
const FETCHABLE_URL = /^(https?:\/\/|ssh:\/\/|git@[^:\s]+:|file:\/\/)\S+$/;
const FETCHABLE_VERSION = /^[A-Za-z0-9][A-Za-z0-9._+/-]{0,99}$/;

/**
 * Clones the ref into a private directory, then moves it into place: databases pinned to the same
 * URL and version may pull at the same time, and the first complete clone wins.
 */
async function fetchPinned(url: string, version: string, dir: string): Promise<boolean> {
  const staging = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    for (const ref of [version, `v${version}`]) {
      try {
        await syncRepository(url, ref, staging);
      } catch {
        continue; // try the next ref form
      }
      try {
        fs.renameSync(staging, dir);
      } catch {
        // Another pull placed it first.
      }
      return fs.existsSync(path.join(dir, '.git'));
    }
    return false;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(`${staging}.partial`, { recursive: true, force: true });
  }
}

/** The dependency's ops/ files as schema-layer ops, in file order, identified as deps/<repo>/ops/<file>. */
function schemaOps(repo: string, files: PcdFile[]): PcdOp[] {
  const loaded = loadPcdRepository({ ops: files });
  return loaded.base.map((op) => ({ ...op, layer: 'schema' as const, id: null, file: `deps/${repo}/${op.file}` }));
}

/** Cache directory of one dependency version (per URL and version). */
export function dependencyDirectory(dataDir: string, url: string, version: string): string {
  return path.join(dataDir, 'pcd-deps', createHash('sha256').update(`${url}@${version}`).digest('hex').slice(0, 16));
}

function repositoryName(url: string): string {
  const parts = url.replace(/\.git$/i, '').replace(/\/+$/, '').split(/[/:]/).filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

/** The repository path of a dependency URL without scheme, host or credentials. */
function displayName(url: string): string {
  const parts = url.replace(/\.git$/i, '').replace(/\/+$/, '').split(/[/:]/).filter(Boolean);
  return parts.slice(-2).join('/');
}
