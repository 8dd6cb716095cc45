import fs from 'node:fs';
import path from 'node:path';
import { RequestContext } from '@mikro-orm/core';
import { Context } from '@temporalio/activity';
import { NativeConnection, Worker, type ActivityInboundCallsInterceptor, type ActivityExecuteInput, type Next } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { isAppError } from '../errors';
import type { Orm } from '../persistence/orm';
import { appErrorToFailure } from '../platform/temporal-errors';
import { activityExecution, activityScheduleToStart } from '../platform/metrics';
import { profiling, publishSample } from '../platform/profiling';

/** Prebuilt by `npm run build` (dist/workflow-bundle.js); dev and tests bundle from source. */
export function prebuiltWorkflowBundle(): string | undefined {
  const candidate = path.resolve(__dirname, '..', 'workflow-bundle.js');
  return fs.existsSync(candidate) ? candidate : undefined;
}

/** One EntityManager fork per activity execution, AppError kept typed across the wire, and a profiling sample per execution. */
class ActivityContextInterceptor implements ActivityInboundCallsInterceptor {
  constructor(private readonly orm: Orm) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const info = Context.current().info;
    const started = Date.now();
    // Task latency: how long this attempt waited for a worker slot after it was scheduled.
    activityScheduleToStart.observe({ activity: info.activityType }, Math.max(0, started - info.currentAttemptScheduledTimestampMs) / 1000);
    let outcome = 'failed';
    const startedAt = profiling() ? performance.timeOrigin + performance.now() : 0;
    return RequestContext.create(this.orm.em, async () => {
      try {
        const result = await next(input);
        outcome = 'completed';
        return result;
      } catch (error) {
        if (isAppError(error)) throw appErrorToFailure(error);
        throw error;
      } finally {
        activityExecution.observe({ activity: info.activityType, outcome }, (Date.now() - started) / 1000);
        if (startedAt) {
          publishSample({ phase: info.isLocal ? 'local-activity' : 'activity', name: info.activityType, startedAt, ms: performance.timeOrigin + performance.now() - startedAt });
        }
      }
    });
  }
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** A prebuilt bundle path; otherwise workflows are bundled from source. */
  workflowBundlePath?: string;
  maxConcurrentActivityTaskExecutions?: number;
  identity?: string;
}

export interface RunningWorker {
  worker: Worker;
  connection: NativeConnection;
  /** Resolves when the worker has stopped. */
  done: Promise<void>;
  /** Drains in-flight tasks and stops polling. */
  shutdown(): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: options.address });
  const bundlePath = options.workflowBundlePath ?? prebuiltWorkflowBundle();
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...(options.identity ? { identity: options.identity } : {}),
    activities: createActivities(options.deps),
    ...(bundlePath ? { workflowBundle: { codePath: bundlePath } } : { workflowsPath: require.resolve('../workflows') }),
    interceptors: { activity: [() => ({ inbound: new ActivityContextInterceptor(options.deps.orm) })] },
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivityTaskExecutions ?? 50,
    shutdownGraceTime: '10 seconds',
  });
  // The worker logs every activation and activity task at TRACE, resolving the entry's metadata (the
  // whole activation) before any level check; with pino above trace, nothing of it is ever written.
  const sdkLogger = (worker as unknown as { logger?: { trace(message: string, meta?: unknown): void } }).logger;
  if (sdkLogger && !options.deps.logger.isLevelEnabled('trace')) sdkLogger.trace = () => undefined;
  const done = worker.run().finally(() => connection.close().catch(() => undefined));
  return {
    worker,
    connection,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
