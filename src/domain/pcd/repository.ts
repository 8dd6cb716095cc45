/**
 * Turning the files of a PCD repository (contents passed in by the caller) into replayable ops.
 */
import { parseManifest, type PcdManifest } from './manifest';
import { parseOpFile, sortOpFiles, type ParsedOpFile, type PcdOp } from './ops';

export interface PcdFile {
  /** Path relative to the repository root's ops/ or tweaks/ folder, e.g. "12.fix-naming.sql". */
  file: string;
  text: string;
}

export interface LoadedPcdRepository {
  manifest: PcdManifest | null;
  /** Base ops in replay order. `id` is the 1-based ordinal (callers storing ops may renumber). */
  base: PcdOp[];
  /** Tweak ops in replay order (file layer: id null). */
  tweaks: PcdOp[];
  files: { base: ParsedOpFile[]; tweaks: ParsedOpFile[] };
}

/**
 * Parses a repository: manifest (optional), ops files (base layer) and tweaks files, each sorted by
 * numeric prefix. Base op file paths are reported as `ops/<file>`, tweaks as `tweaks/<file>`.
 */
export function loadPcdRepository(input: { manifest?: string | unknown; ops: PcdFile[]; tweaks?: PcdFile[] }): LoadedPcdRepository {
  const manifest = input.manifest === undefined ? null : parseManifest(input.manifest);
  const baseFiles = sortOpFiles(input.ops).map((f) => parseOpFile(`ops/${f.file}`, f.text));
  const tweakFiles = sortOpFiles(input.tweaks ?? []).map((f) => parseOpFile(`tweaks/${f.file}`, f.text));
  let nextId = 1;
  const base: PcdOp[] = baseFiles.flatMap((f) =>
    f.ops.map((op) => ({
      layer: 'base' as const,
      id: nextId++,
      file: op.file,
      position: op.position,
      markerId: op.markerId,
      target: op.target,
      sql: op.sql,
    })),
  );
  const tweaks: PcdOp[] = tweakFiles.flatMap((f) =>
    f.ops.map((op) => ({
      layer: 'tweaks' as const,
      id: null,
      file: op.file,
      position: op.position,
      markerId: op.markerId,
      target: op.target,
      sql: op.sql,
    })),
  );
  return { manifest, base, tweaks, files: { base: baseFiles, tweaks: tweakFiles } };
}
