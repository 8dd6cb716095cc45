/**
 * The sandbox: a private copy of the resolved database in which the plan is compiled as the user
 * op that would adopt it, inside a savepoint that is always rolled back; the profile is read back
 * and diffed against the resolved one with the diff engine (path notation of the resolved reads).
 * The caller's databases are never written. One sandbox serves every preview of one cache state
 * (opening a copy costs far more than a preview), so it is opened from the state's serialized bytes.
 */
import type Database from 'better-sqlite3';
import { diff, type FieldChange } from '../diff/diff';
import { copyDatabase, modelOf, planRowStatements, runPlannedStatements, statementText, type PlannedStatement, type PlannedUserOp, type QualityProfileData, type Row } from '../pcd';
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
  // Values only: without rowids the model skips the field sources lineage needs.
  const rows = readEntityRows(db, model, name, { rowids: false });
  if (!rows) return null;
  return { rows, data: model.fromRows(name, rows).data as QualityProfileData };
}

/** The op of the statements; its SQL text is rendered on first read (a preview alone never reads it). */
function plannedOp(name: string, statements: readonly PlannedStatement[]): PlannedUserOp {
  let sql: string | null = null;
  return {
    get sql(): string {
      sql ??= statements.map((s) => `${statementText(s)};`).join('\n');
      return sql;
    },
    target: { portableType: 'quality_profile', name },
    summary: `update quality_profile "${name}"`,
  };
}

/**
 * Indexes every table of a profile by its owner column where no full index leads with it (the bundled
 * schema has none on quality_profile_qualities): the op's guarded updates and the read-back then
 * search instead of scanning every profile's rows. An index changes no result: reads order
 * explicitly (see readOwnedRows).
 */
function indexOwners(db: Database.Database): void {
  for (const { table, ownerColumn } of model.tables) {
    const indexes = db.prepare(`SELECT name FROM pragma_index_list(?) WHERE partial = 0`).pluck().all(table) as string[];
    const led = indexes.some((index) => db.prepare(`SELECT name FROM pragma_index_info(?) WHERE seqno = 0`).pluck().get(index) === ownerColumn);
    if (!led) db.exec(`CREATE INDEX "_goal_sandbox_${table}_owner" ON "${table}" ("${ownerColumn}")`);
  }
}

export class GoalSandbox {
  private readonly savepoint: Database.Statement;
  private readonly rollback: Database.Statement;
  private readonly release: Database.Statement;

  private constructor(private readonly db: Database.Database) {
    this.savepoint = db.prepare('SAVEPOINT goal_sandbox');
    this.rollback = db.prepare('ROLLBACK TO goal_sandbox');
    this.release = db.prepare('RELEASE goal_sandbox');
  }

  /** Opens a sandbox from the serialized bytes of a resolved database. */
  static open(resolvedBytes: Buffer): GoalSandbox {
    const { db } = copyDatabase(resolvedBytes);
    // Lineage is never read here: without its triggers an op runs several times faster.
    const triggers = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '\\_pcd\\_%' ESCAPE '\\'`).pluck().all() as string[];
    for (const name of triggers) db.exec(`DROP TRIGGER "${name}"`);
    indexOwners(db);
    return new GoalSandbox(db);
  }

  /**
   * Plans the op turning the profile as read from the resolved state (`current`) into `desired`
   * (value-guarded: see pcd/user-layer.ts), runs it here and rolls it back.
   */
  compile(current: ProfileState, desired: QualityProfileData): SandboxResult {
    const name = desired.name;
    const statements = planRowStatements(model, current.rows, model.toRows(desired));
    if (statements.length === 0) return { op: null, changes: [] };
    const op = plannedOp(name, statements);
    let compiled: QualityProfileData;
    this.savepoint.run();
    try {
      // The op's statements, prepared once per shape with their values bound: the same effect as
      // running its text, without parsing ~150 similar statements per preview.
      runPlannedStatements(this.db, statements);
      const read = readProfile(this.db, name);
      if (!read) throw new Error(`quality profile "${name}" vanished in the sandbox`);
      compiled = read.data;
    } finally {
      this.rollback.run();
      this.release.run();
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
