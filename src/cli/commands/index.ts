import type { Command } from 'commander';
import { examples } from '../command-kit';
import { registerCompletionCommand } from './completion';
import { registerDatabaseCommands } from './db';
import { registerDriftCommands } from './drift';
import { registerEvaluateCommand } from './evaluate';
import { registerHistoryCommands } from './history';
import { registerInstanceCommands } from './instances';
import { registerLoginCommand } from './login';
import { registerPcdCommands } from './pcd';
import { registerRolloutCommands } from './rollout';
import { registerStatusCommand } from './status';
import { registerSyncCommands } from './sync';

/** The API commands (status, instances, db, sync, drift, rollout, history, timeline, evaluate, pcd, completion, login). */
export function registerCoreCommands(program: Command): void {
  registerStatusCommand(program);
  registerInstanceCommands(program);
  registerDatabaseCommands(program);
  registerSyncCommands(program);
  registerDriftCommands(program);
  registerRolloutCommands(program);
  registerHistoryCommands(program);
  registerEvaluateCommand(program);
  registerPcdCommands(program);
  registerLoginCommand(program);
  registerCompletionCommand(program);
  examples(program, 'arrgo login --url http://localhost:7979   # once; or set ARRGO_URL and ARRGO_API_KEY', 'arrgo status', 'arrgo sync preview radarr-main', 'arrgo instances list -o json');
}
