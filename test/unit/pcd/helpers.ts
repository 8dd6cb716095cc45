import fs from 'node:fs';
import path from 'node:path';
import { loadPcdRepository, type LoadedPcdRepository, type PcdFile } from '../../../src/domain/pcd';
import { sharedPath } from '../../helpers/shared-data';

export const SAMPLE_PCD_DIR = path.resolve(__dirname, '..', '..', '..', 'examples', 'sample-pcd');
export const TRASH_PCD_PARTS = ['data', 'pcd', 'trash-pcd'];

function readSqlDir(dir: string): PcdFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .map((file) => ({ file, text: fs.readFileSync(path.join(dir, file), 'utf8') }));
}

/** Reads a PCD repository from disk (tests only: the domain never touches files). */
export function readRepository(dir: string): LoadedPcdRepository {
  return loadPcdRepository({
    manifest: fs.readFileSync(path.join(dir, 'pcd.json'), 'utf8'),
    ops: readSqlDir(path.join(dir, 'ops')),
    tweaks: readSqlDir(path.join(dir, 'tweaks')),
  });
}

let trash: LoadedPcdRepository | null = null;
export function trashRepository(): LoadedPcdRepository {
  trash ??= readRepository(sharedPath(...TRASH_PCD_PARTS));
  return trash;
}

export function sampleRepository(): LoadedPcdRepository {
  return readRepository(SAMPLE_PCD_DIR);
}

export function count(db: { prepare(sql: string): { get(): unknown } }, table: string): number {
  return (db.prepare(`SELECT COUNT(*) AS c FROM "${table}"`).get() as { c: number }).c;
}
