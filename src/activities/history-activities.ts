import { pruneSyncRuns, readHistorySettings } from '../services/sync/history-service';
import type { ActivityDeps } from './deps';

export function historyActivities(deps: ActivityDeps) {
  return {
    /** Applies the stored retention settings to the sync history. */
    async pruneSyncHistory(): Promise<{ byAge: number; byCount: number }> {
      const settings = await readHistorySettings(deps.orm.em);
      const pruned = await pruneSyncRuns(deps.orm.em, settings);
      deps.logger.info({ ...pruned, retentionDays: settings.retentionDays, retentionMaxEntries: settings.retentionMaxEntries }, 'sync history pruned');
      return pruned;
    },
  };
}
