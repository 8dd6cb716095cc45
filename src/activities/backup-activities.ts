import { backupsDir, createBackup, pruneBackups, type BackupResult } from '../services/backup/backup-service';
import type { ActivityDeps } from './deps';

export function backupActivities(deps: ActivityDeps) {
  return {
    async backupDatabase(): Promise<BackupResult> {
      const dir = backupsDir(deps.config.dataDir);
      const { file, bytes } = await createBackup(deps.orm, deps.config.database, dir);
      const pruned = pruneBackups(dir, deps.config.backup.retentionDays);
      deps.logger.info({ file, bytes, pruned }, 'database backup written');
      return { file, bytes, pruned };
    },
  };
}
