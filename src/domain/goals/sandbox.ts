/**
 * The sandbox: a private copy of the resolved database in which the plan is compiled as the user
 * op that would adopt it, inside a savepoint that is always rolled back; the profile is read back
 * and diffed against the resolved one with the diff engine (path notation of the resolved reads).
 * The caller's databases are never written. One sandbox serves every preview of one cache state
 * (opening a copy costs far more than a preview), so it is opened from the state's serialized bytes.
 */
import type Database from 'better-sqlite3';
import { diff, type FieldChange } from '../diff/diff';
import { copyDatabase, modelOf, planRowChanges, type PlannedUserOp, type QualityProfileData, type Row } from '../pcd';
import { readEntityRows } from '../pcd/entities/common';

export interface SandboxResult {
  /** The value-guarded user op that turns the resolved profile into the desired one; null when nothing changes. */
  op: PlannedUserOp | null;
  /** Resolved profile -> compiled (sandbox) profile. */
  changes: FieldChange[];
}

const model = modelOf('quality_profile');

/** A quality profile as rows and portable data; null when the database has none by that name. */
export interface ProfileState {
  rows: Row[];
  data: QualityProfileData;
}

export function readProfile(db: Database.Database, name: string): ProfileState | null {
  const read = readEntityRows(db, model, name);
  if (!read) return null;
  const rows = read.map(({ table, values }) => ({ table, values }));
  return { rows, data: model.fromRows(name, rows).data as QualityProfileData };
}

export class GoalSandbox {
  private constructor(private readonly db: Database.Database) {}

  /** Opens a sandbox from the serialized bytes of a resolved database. */
  static open(resolvedBytes: Buffer): GoalSandbox {
    const { db } = copyDatabase(resolvedBytes);
    // Lineage is never read here: without its triggers an op runs several times faster.
    const triggers = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '\\_pcd\\_%' ESCAPE '\\'`).pluck().all() as string[];
    for (const name of triggers) db.exec(`DROP TRIGGER "${name}"`);
    return new GoalSandbox(db);
  }

  /**
   * Plans the op turning the profile as read from the resolved state (`current`) into `desired`
   * (value-guarded: see pcd/user-layer.ts), runs it here and rolls it back.
   */
  compile(current: ProfileState, desired: QualityProfileData): SandboxResult {
    const name = desired.name;
    const statements = planRowChanges(model, current.rows, model.toRows(desired));
    if (statements.length === 0) return { op: null, changes: [] };
    const op: PlannedUserOp = { sql: statements.map((s) => `${s};`).join('\n'), target: { portableType: 'quality_profile', name }, summary: `update quality_profile "${name}"` };
    let compiled: QualityProfileData;
    this.db.exec('SAVEPOINT goal_sandbox');
    try {
      this.db.exec(op.sql);
      const read = readProfile(this.db, name);
      if (!read) throw new Error(`quality profile "${name}" vanished in the sandbox`);
      compiled = read.data;
    } finally {
      this.db.exec('ROLLBACK TO goal_sandbox');
      this.db.exec('RELEASE goal_sandbox');
    }
    return { op, changes: diff(current.data, compiled, model.diffOptions) };
  }

  /** A profile as the sandbox holds it between previews (tests check each preview is rolled back). */
  read(name: string): ProfileState | null {
    return readProfile(this.db, name);
  }

  close(): void {
    this.db.close();
  }
}
