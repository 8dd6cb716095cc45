import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PCD_SCHEMA_DEPENDENCY, SCHEMA_VERSION, type PcdManifest } from '../../domain/pcd';
import type { PcdSchemaSource } from '../../persistence/entities';
import { syncRepository } from './git';

export interface SchemaResolution {
  source: PcdSchemaSource;
  note: string;
}

/**
 * A manifest names its schema dependency (the Dictionarry schema repository and a version). arrgo
 * replays its own bundled schema, written compatible with PCD schema 1.x table and column names
 * and extended with seeds and music_app tables. The dependency is fetched (once per version, into
 * DATA_DIR/pcd-deps) to confirm it is reachable and of a compatible major version; when it cannot
 * be fetched the bundled schema stands in and the status says so.
 */
export async function resolveSchemaDependency(manifest: PcdManifest, dataDir: string, fetchMode: 'auto' | 'off' = 'auto'): Promise<SchemaResolution> {
  const entry = Object.entries(manifest.dependencies).find(([url]) => url.replace(/\.git$/, '').toLowerCase() === PCD_SCHEMA_DEPENDENCY.toLowerCase() || /\/schema(\.git)?$/i.test(url));
  if (!entry) {
    return { source: 'bundled', note: `The manifest declares no schema dependency; the bundled PCD schema ${SCHEMA_VERSION} is used.` };
  }
  const [url, version] = entry;
  const major = String(version).split('.')[0];
  const bundledMajor = String(SCHEMA_VERSION).split('.')[0];
  const dir = path.join(dataDir, 'pcd-deps', createHash('sha256').update(`${url}@${version}`).digest('hex').slice(0, 16));
  const label = `${displayName(url)}@${version}`;
  if (fetchMode === 'off') {
    return { source: 'bundled', note: `Fetching schema dependencies is switched off (PCD_SCHEMA_FETCH=off); the bundled PCD schema ${SCHEMA_VERSION} stands in for ${label}.` };
  }
  if (!fs.existsSync(path.join(dir, '.git'))) {
    let fetched = false;
    for (const ref of [`v${version}`, String(version)]) {
      try {
        await syncRepository(url, ref, dir);
        fetched = true;
        break;
      } catch {
        /* try the next ref form, then fall back */
      }
    }
    if (!fetched) {
      return { source: 'bundled', note: `The schema dependency ${label} could not be fetched; the bundled PCD schema ${SCHEMA_VERSION} stands in.` };
    }
  }
  if (major !== bundledMajor) {
    return {
      source: 'bundled',
      note: `The schema dependency ${label} was fetched but its major version differs from the bundled schema ${SCHEMA_VERSION}; the bundled schema is used and some ops may fail.`,
    };
  }
  return { source: 'dependency', note: `The schema dependency ${label} was fetched; it is compatible with the bundled schema ${SCHEMA_VERSION}, which arrgo replays with its seed rows and music_app tables.` };
}

/** The repository path of a dependency URL without scheme, host or credentials. */
function displayName(url: string): string {
  const trimmed = url.replace(/\.git$/, '').replace(/\/+$/, '');
  const parts = trimmed.split(/[/:]/).filter(Boolean);
  return parts.slice(-2).join('/');
}
