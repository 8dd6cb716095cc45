/**
 * The sandbox: compiles a desired profile into the database as a user op on a throwaway copy of
 * the resolved state, then reads the profile back and diffs it against the resolved one with the
 * diff engine (path notation of the resolved reads). The caller's databases are never written.
 */
import type Database from 'better-sqlite3';
import { diff, type FieldChange } from '../diff/diff';
import { modelOf, planUpdate, readEntity, replayUserLayer, type PlannedUserOp, type QualityProfileData } from '../pcd';

export interface SandboxResult {
  /** The value-guarded user op that turns the resolved profile into the desired one; null when nothing changes. */
  op: PlannedUserOp | null;
  /** Resolved profile -> sandbox profile. */
  changes: FieldChange[];
}

/**
 * @param resolved the resolved database (read only: the op is planned against it)
 * @param resolvedBytes its serialized bytes (the sandbox is opened from them)
 */
export function compileInSandbox(resolved: Database.Database, resolvedBytes: Buffer, desired: QualityProfileData): SandboxResult {
  const model = modelOf('quality_profile');
  const current = readEntity(resolved, 'quality_profile', desired.name);
  if (!current) throw new Error(`quality profile "${desired.name}" is not in the resolved state`);
  const op = planUpdate(resolved, 'quality_profile', desired.name, desired);
  if (!op) return { op: null, changes: [] };
  const replayed = replayUserLayer(resolvedBytes, [{ id: 0, sql: op.sql, target: op.target }]);
  const sandbox = replayed.resolved;
  try {
    const failed = replayed.outcomes.find((o) => o.status === 'failed');
    if (failed) throw new Error(`the planned op does not apply in the sandbox (${failed.reason ?? 'invalid'})`);
    const compiled = readEntity(sandbox, 'quality_profile', desired.name);
    if (!compiled) throw new Error(`quality profile "${desired.name}" vanished in the sandbox`);
    return { op, changes: diff(current.data, compiled.data, model.diffOptions) };
  } finally {
    sandbox.close();
  }
}
