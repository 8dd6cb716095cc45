import { Context } from '@temporalio/activity';
import type { LinkContext, NotificationPayload } from '../domain/notifications';
import { linkContext, publishNotification, publishNotifications, type PublishDeps } from '../services/notifications/publisher';
import { wakeableDelay } from '../services/wakeable-delay';
import type { ActivityDeps } from './deps';

/** Where an event raised in the worker links to. */
export function activityLinks(deps: ActivityDeps): LinkContext {
  return linkContext(deps.config, deps.temporalUiUrl ?? null);
}

/**
 * Publishes an event from inside an activity, starting its deliveries with the worker's own
 * client. A failure to publish never fails the activity that raised the event: it is logged
 * (without detail that could carry a URL) and the activity's own work stands.
 */
export async function notify(deps: ActivityDeps, build: (links: LinkContext) => NotificationPayload | null, subjectKey: string): Promise<void> {
  try {
    const event = build(activityLinks(deps));
    if (!event) return;
    await publishNotification(publishDeps(deps), event, subjectKey);
  } catch (error) {
    logUnpublished(deps, subjectKey, error);
  }
}

function publishDeps(deps: ActivityDeps): PublishDeps {
  return { em: deps.orm.em, temporal: { client: Context.current().client, taskQueue: deps.config.temporal.taskQueue }, config: deps.config, logger: deps.logger };
}

/** A notification that could not be published is logged (its class only), never raised. */
function logUnpublished(deps: ActivityDeps, subjectKey: string, error: unknown): void {
  deps.logger.warn({ subjectKey, errorClass: (error as Error)?.name ?? 'unknown' }, 'notification could not be published');
}

/** How long a batch waits for more events (they are raised by work taking hundreds of ms). */
const BATCH_GATHER_MS = 20;

/**
 * notify() for the many events of one activity (a polling run's drift transitions): events are
 * published in batches, those added while one batch is published going into the next. Like
 * notify(), a failure is logged and never fails the activity; `drain()` waits for what was added.
 */
export class NotificationBatcher {
  private pending: { event: NotificationPayload; subjectKey: string }[] = [];
  private running: Promise<void> | null = null;
  private draining = false;
  private wake: (() => void) | null = null;
  private readonly publishDeps: PublishDeps;

  constructor(private readonly deps: ActivityDeps) {
    // Captured here: the activity's context is not available in later callbacks.
    this.publishDeps = publishDeps(deps);
  }

  add(build: (links: LinkContext) => NotificationPayload | null, subjectKey: string): void {
    try {
      const event = build(activityLinks(this.deps));
      if (event) this.pending.push({ event, subjectKey });
    } catch (error) {
      logUnpublished(this.deps, subjectKey, error);
    }
    this.running ??= this.run();
  }

  /** Publishes what is left at once (no more events will come) and waits for it. */
  async drain(): Promise<void> {
    this.draining = true;
    this.wake?.();
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    while (this.pending.length) {
      // Let the events raised in the next few milliseconds join this batch (unless draining).
      if (!this.draining) {
        const delay = wakeableDelay(BATCH_GATHER_MS);
        this.wake = delay.wake;
        await delay.done;
        this.wake = null;
      }
      const batch = this.pending;
      this.pending = [];
      try {
        await publishNotifications(this.publishDeps, batch);
      } catch {
        // One event must not cost the others theirs: publish them one at a time.
        for (const { event, subjectKey } of batch) {
          try {
            await publishNotification(this.publishDeps, event, subjectKey);
          } catch (error) {
            logUnpublished(this.deps, subjectKey, error);
          }
        }
      }
    }
    this.running = null;
  }
}
