import fs from 'node:fs';
import path from 'node:path';
import type { PcdFile } from '../../domain/pcd';

export interface RepositoryFiles {
  manifestText: string | null;
  ops: PcdFile[];
  tweaks: PcdFile[];
}

/** Reads pcd.json, ops/*.sql and tweaks/*.sql of a checked-out repository or local directory. */
export function readRepositoryFiles(dir: string): RepositoryFiles {
  const manifestPath = path.join(dir, 'pcd.json');
  return {
    manifestText: fs.existsSync(manifestPath) ? fs.readFileSync(manifestPath, 'utf8') : null,
    ops: readSqlFiles(path.join(dir, 'ops')),
    tweaks: readSqlFiles(path.join(dir, 'tweaks')),
  };
}

function readSqlFiles(dir: string): PcdFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.sql'))
    .map((entry) => ({ file: entry.name, text: fs.readFileSync(path.join(dir, entry.name), 'utf8') }));
}

export function cloneDirectory(dataDir: string, databaseId: number): string {
  return path.join(dataDir, 'pcd', String(databaseId));
}
