import fs from 'node:fs';
import path from 'node:path';
import { TRASH_ENTITY_DIRS, trashAppDir, type GuideFile, type RefGuideArrType } from '../../domain/ref-guide';

/** Where a git source is cloned. */
export function refGuideCloneDirectory(dataDir: string, sourceId: number): string {
  return path.join(dataDir, 'ref-guides', String(sourceId));
}

/** The JSON files of the guide's entity directories for one app family (paths relative to the repository root). */
export function listGuideFiles(root: string, arrType: RefGuideArrType): string[] {
  const appDir = trashAppDir(arrType);
  const out: string[] = [];
  for (const dir of Object.values(TRASH_ENTITY_DIRS)) {
    const absolute = path.join(root, appDir, dir);
    if (!fs.existsSync(absolute)) continue;
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.json')) out.push(`${appDir}/${dir}/${entry.name}`);
    }
  }
  return out.sort();
}

/** Reads the listed files, reporting progress every `every` files. */
export function readGuideFiles(root: string, paths: string[], onProgress: (done: number, total: number) => void, every = 50): GuideFile[] {
  const files: GuideFile[] = [];
  for (const [i, relative] of paths.entries()) {
    files.push({ path: relative, text: fs.readFileSync(path.join(root, relative), 'utf8') });
    if ((i + 1) % every === 0 || i + 1 === paths.length) onProgress(i + 1, paths.length);
  }
  return files;
}
