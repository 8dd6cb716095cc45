import fs from 'node:fs';
import path from 'node:path';
import pino, { Logger } from 'pino';
import { createStream } from 'rotating-file-stream';
import { errorClass } from '../errors';

export type { Logger } from 'pino';

/**
 * Logs a failure at `level` with the error's class only, and the error itself (message, stack) at
 * debug: lines above debug never carry an error's text, which can name a host, SQL or an app's body.
 */
export function logFailure(logger: Pick<Logger, 'warn' | 'error' | 'debug'>, level: 'warn' | 'error', fields: Record<string, unknown>, error: unknown, message: string): void {
  logger[level]({ ...fields, errorClass: errorClass(error) }, message);
  logger.debug({ ...fields, err: error }, `${message}: detail`);
}

/**
 * Values that must never appear in a log line (service API key, encryption secret, decrypted
 * instance API keys). Every destination is wrapped so a registered value is replaced even when
 * it hides inside an error message or a URL.
 */
export class SecretScrubber {
  private readonly secrets = new Set<string>();
  private readonly patterns = new Map<string, RegExp>();

  add(value: string | undefined | null): void {
    if (value && value.length >= 6) this.secrets.add(value);
  }

  /**
   * Secrets known by their shape rather than their value (a session cookie: `name=value`); the
   * first capture group is kept, the rest of the match is replaced.
   */
  addPattern(pattern: RegExp): void {
    this.patterns.set(pattern.source, new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g'));
  }

  scrub(line: string): string {
    let out = line;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    }
    for (const pattern of this.patterns.values()) out = out.replace(pattern, (_match, kept: unknown) => `${typeof kept === 'string' ? kept : ''}[REDACTED]`);
    return out;
  }
}

/** One process-wide scrubber: secrets learned anywhere are scrubbed from every logger. */
export const secretScrubber = new SecretScrubber();

export const REDACT_PATHS = [
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'api_key',
  '*.api_key',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'token',
  '*.token',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'headers["x-arrgo-csrf"]',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
  '*.headers["x-arrgo-csrf"]',
  'csrfToken',
  '*.csrfToken',
  'sessionId',
  '*.sessionId',
];

export interface LogDestination {
  write(line: string): void;
}

export interface LoggerOptions {
  level: string;
  /** Directory for rotating log files; omitted: stdout only. */
  logsDir?: string;
  retentionFiles?: number;
  stdout?: boolean;
  /** Extra destinations (tests capture lines here). */
  extra?: LogDestination[];
  scrubber?: SecretScrubber;
}

export function createLogger(options: LoggerOptions): Logger {
  const scrubber = options.scrubber ?? secretScrubber;
  const streams: pino.StreamEntry[] = [];
  const wrap = (target: LogDestination): LogDestination => ({ write: (line: string) => target.write(scrubber.scrub(line)) });
  if (options.stdout !== false) streams.push({ level: 'trace', stream: wrap(process.stdout) });
  if (options.logsDir) {
    fs.mkdirSync(options.logsDir, { recursive: true });
    const file = createStream(logFileName, {
      path: options.logsDir,
      interval: '1d',
      size: '20M',
      maxFiles: options.retentionFiles ?? 14,
    });
    streams.push({ level: 'trace', stream: wrap(file) });
  }
  for (const extra of options.extra ?? []) streams.push({ level: 'trace', stream: wrap(extra) });
  return pino(
    {
      level: options.level,
      base: { service: 'arrgo' },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: pino.stdSerializers.err },
    },
    pino.multistream(streams),
  );
}

/** arrgo.log is the live file; rotated files are arrgo-YYYY-MM-DD.N.log. */
export function logFileName(time: number | Date | null, index?: number): string {
  if (!time) return 'arrgo.log';
  const date = new Date(time).toISOString().slice(0, 10);
  return `arrgo-${date}.${index ?? 1}.log`;
}

export interface LogFilesSummary {
  fileCount: number;
  totalBytes: number;
  oldest: Date | null;
  newest: Date | null;
}

export function summarizeLogFiles(logsDir: string): LogFilesSummary {
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(logsDir).filter((f) => f.endsWith('.log'));
  } catch {
    return { fileCount: 0, totalBytes: 0, oldest: null, newest: null };
  }
  let totalBytes = 0;
  let oldest: Date | null = null;
  let newest: Date | null = null;
  for (const name of entries) {
    const stat = fs.statSync(path.join(logsDir, name));
    totalBytes += stat.size;
    if (!oldest || stat.mtime < oldest) oldest = stat.mtime;
    if (!newest || stat.mtime > newest) newest = stat.mtime;
  }
  return { fileCount: entries.length, totalBytes, oldest, newest };
}
