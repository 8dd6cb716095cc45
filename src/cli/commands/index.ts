import type { Command } from 'commander';

/** The API commands (status, instances, db, sync, drift, rollout, history, timeline, evaluate, pcd, completion). */
export function registerCoreCommands(program: Command): void {
  void program;
}
