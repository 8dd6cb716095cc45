import type { Command } from 'commander';

/** The fleet-file commands (validate, plan, apply, export) and the imports from Recyclarr and Configarr. */
export function registerFleetCommands(program: Command): void {
  void program;
}
