import fs from 'node:fs';
import path from 'node:path';
import { applicationTables, knexOf, type Orm, type DatabaseConfig } from '../../persistence/orm';

export interface BackupResult {
  file: string;
  bytes: number;
  pruned: number;
}

export interface BackupSummary {
  count: number;
  totalBytes: number;
  lastBackup: Date | null;
}

const BACKUP_FILE = /^arrgo-(\d{8}T\d{6}Z)\.(sqlite|json)$/;

export function backupsDir(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

/**
 * SQLite: an online copy with VACUUM INTO (consistent while the service runs).
 * PostgreSQL: a JSON export of every table in the current schema.
 */
export async function createBackup(orm: Orm, database: DatabaseConfig, dir: string, now = new Date()): Promise<{ file: string; bytes: number }> {
  fs.mkdirSync(dir, { recursive: true });
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  if (database.kind === 'sqlite') {
    const file = path.join(dir, `arrgo-${stamp}.sqlite`);
    const partial = file + '.partial';
    fs.rmSync(partial, { force: true });
    await orm.em.getConnection().execute('VACUUM INTO ?', [partial]);
    fs.renameSync(partial, file);
    return { file: path.basename(file), bytes: fs.statSync(file).size };
  }
  const file = path.join(dir, `arrgo-${stamp}.json`);
  const partial = file + '.partial';
  const out = fs.openSync(partial, 'w');
  try {
    // One snapshot for every table: rows written while the export runs are in all tables or in none.
    await knexOf(orm).transaction(
      async (trx) => {
        const tables = await applicationTables(trx, 'postgresql');
        fs.writeSync(out, `{"format":"arrgo-backup","version":1,"driver":"postgresql","createdAt":${JSON.stringify(now.toISOString())},"tables":{`);
        for (const [index, table] of tables.entries()) {
          const rows = await trx.raw(`select * from "${table.replace(/"/g, '""')}"`);
          fs.writeSync(out, `${index ? ',' : ''}${JSON.stringify(table)}:${JSON.stringify(rows.rows)}`);
        }
        // Sequences too: ids deleted at the top are not handed out again after a restore.
        const sequences = await trx.raw(`select sequencename as name, last_value from pg_sequences where schemaname = current_schema() and last_value is not null`);
        const lastValues = Object.fromEntries((sequences.rows as { name: string; last_value: string }[]).map((r) => [r.name, Number(r.last_value)]));
        fs.writeSync(out, `},"sequences":${JSON.stringify(lastValues)}}\n`);
      },
      { isolationLevel: 'repeatable read', readOnly: true },
    );
  } finally {
    fs.closeSync(out);
  }
  fs.renameSync(partial, file);
  return { file: path.basename(file), bytes: fs.statSync(file).size };
}

/** Removes backups older than the retention window; the newest backup is always kept. */
export function pruneBackups(dir: string, retentionDays: number, now = new Date()): number {
  const files = listBackups(dir);
  const cutoff = now.getTime() - retentionDays * 86_400_000;
  let pruned = 0;
  for (const entry of files.slice(1)) {
    if (entry.takenAt.getTime() < cutoff) {
      fs.rmSync(path.join(dir, entry.name), { force: true });
      pruned++;
    }
  }
  return pruned;
}

export function summarizeBackups(dir: string): BackupSummary {
  const files = listBackups(dir);
  return {
    count: files.length,
    totalBytes: files.reduce((sum, f) => sum + f.bytes, 0),
    lastBackup: files[0]?.takenAt ?? null,
  };
}

/** Newest first. */
function listBackups(dir: string): { name: string; takenAt: Date; bytes: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, match: BACKUP_FILE.exec(name) }))
    .filter((e): e is { name: string; match: RegExpExecArray } => e.match !== null)
    .map(({ name, match }) => {
      const s = match[1];
      const takenAt = new Date(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`);
      return { name, takenAt, bytes: fs.statSync(path.join(dir, name)).size };
    })
    .sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
