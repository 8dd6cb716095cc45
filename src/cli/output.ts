import type Table from 'cli-table3';
import picocolors from 'picocolors';
import type { CliContext } from './context';

/** picocolors' formatters (no colour when disabled). */
export type Colors = ReturnType<typeof picocolors.createColors>;

/** Writes a value for scripts: JSON on stdout, nothing else. */
export function printJson(ctx: Pick<CliContext, 'stdout'>, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A line of text for people (nothing in `-o json` mode: stdout then carries JSON only). */
export function printLine(ctx: Pick<CliContext, 'stdout' | 'output'>, text = ''): void {
  if (ctx.output === 'table') ctx.stdout.write(`${text}\n`);
}

/** A table for people. Cells are shown as text; null and undefined as an empty cell. */
export function printTable(ctx: Pick<CliContext, 'stdout' | 'output'>, head: string[], rows: unknown[][]): void {
  if (ctx.output !== 'table') return;
  if (rows.length === 0) {
    ctx.stdout.write('(none)\n');
    return;
  }
  const table = new (tableClass())({ head, style: { head: colorsOf(ctx).enabled ? ['cyan'] : [], border: [] } });
  for (const row of rows) table.push(row.map(cell));
  ctx.stdout.write(`${table.toString()}\n`);
}

/** `-o json`: the value as JSON; otherwise what `human` prints. */
export function emit<T>(ctx: CliContext, value: T, human: (value: T) => void): void {
  if (ctx.output === 'json') printJson(ctx, value);
  else human(value);
}

/** Colours when stdout is a terminal and NO_COLOR is unset (https://no-color.org). */
export function colorsOf(ctx: Pick<CliContext, 'stdout'> & { env?: NodeJS.ProcessEnv }): Colors & { enabled: boolean } {
  const env = ctx.env ?? process.env;
  const enabled = Boolean(ctx.stdout.isTTY) && !env.NO_COLOR;
  return { ...picocolors.createColors(enabled), enabled };
}

let loadedTable: typeof Table | undefined;

/** cli-table3, loaded at the first table: a command that prints none (`plan`, `-o json`) starts without it. */
function tableClass(): typeof Table {
  loadedTable ??= require('cli-table3') as typeof Table;
  return loadedTable;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A timestamp as people read it in a table: `2026-11-27 12:45:14` (UTC). */
export function when(iso: string | null | undefined): string {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') : '';
}
