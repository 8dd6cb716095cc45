import path from 'node:path';
import { loadConfig } from '../config';
import { RestoreRefused, restoreBackup } from '../services/backup/restore-service';

/**
 * `npm run restore -- <backup>`: restores a backup from DATA_DIR/backups (a SQLite copy or a
 * PostgreSQL JSON export) into the empty database the configuration names (DATABASE_URL, or
 * DATA_DIR/arrgo.sqlite). Run it with arrgo stopped and the ARRGO_SECRET (or DATA_DIR/secret.key)
 * the backup was taken with, so sealed API keys and channel URLs still open.
 */
async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    process.stderr.write('usage: npm run restore -- <backup file (.sqlite or .json)>\n');
    return 2;
  }
  const config = loadConfig();
  try {
    const outcome = await restoreBackup(config.database, path.resolve(file));
    const target = config.database.kind === 'sqlite' ? config.database.file : 'the PostgreSQL database in DATABASE_URL';
    const upgraded = outcome.migration === outcome.backupMigration ? '' : `, upgraded from schema ${outcome.backupMigration} to ${outcome.migration}`;
    process.stdout.write(`Restored ${outcome.rows} rows in ${outcome.tables} tables into ${target} (schema ${outcome.backupMigration}${upgraded}).\n`);
    return 0;
  } catch (error) {
    if (error instanceof RestoreRefused) {
      process.stderr.write(`Restore refused: ${error.message}\n`);
      return 1;
    }
    // The rows go in one transaction: a failure leaves at most empty tables, and the restore can run again.
    process.stderr.write(`Restore failed: ${error instanceof Error ? error.message : String(error)}\nNo rows were committed; fix the cause and run the restore again.\n`);
    return 1;
  }
}

main()
  .then((code) => process.exit(code))
  .catch(() => process.exit(1));
