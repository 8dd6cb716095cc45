import { Runtime, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { Logger } from './logger';

let installedWith: { current: Logger } | null = null;

/**
 * Routes the Temporal runtime's logs (worker, workflow `log`) into pino, so they are structured,
 * rotated and scrubbed like everything else. The runtime can be installed once per process; later
 * calls only retarget the logger (tests start several harnesses in one process).
 */
export function installTemporalRuntimeLogging(logger: Logger): void {
  if (installedWith) {
    installedWith.current = logger;
    return;
  }
  const target = { current: logger };
  installedWith = target;
  const emit = (level: LogLevel, message: string, meta?: LogMetadata) => {
    const log = target.current.child({ component: 'temporal' });
    const fields = { ...(meta ?? {}) } as Record<string, unknown>;
    switch (level) {
      case 'TRACE':
        return log.trace(fields, message);
      case 'DEBUG':
        return log.debug(fields, message);
      case 'INFO':
        return log.info(fields, message);
      case 'WARN':
        return log.warn(fields, message);
      default:
        return log.error(fields, message);
    }
  };
  Runtime.install({
    logger: {
      log: emit,
      trace: (m, meta) => emit('TRACE', m, meta),
      debug: (m, meta) => emit('DEBUG', m, meta),
      info: (m, meta) => emit('INFO', m, meta),
      warn: (m, meta) => emit('WARN', m, meta),
      error: (m, meta) => emit('ERROR', m, meta),
    },
    telemetryOptions: { logging: { filter: 'WARN', forward: {} } },
  });
  // The runtime buffers every entry of the SDK's own logger (TRACE included: one per activation,
  // with the activation) in a time-sorted heap before forwarding it, and pino then drops most of
  // them. Entries below the level pino writes are dropped here instead, before the buffer.
  const runtimeLogger = Runtime.instance().logger;
  const forward = runtimeLogger.log.bind(runtimeLogger);
  runtimeLogger.log = (level, message, meta) => {
    if (target.current.isLevelEnabled(PINO_LEVEL[level])) forward(level, message, meta);
  };
}

const PINO_LEVEL: Record<LogLevel, string> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };
