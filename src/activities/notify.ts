import { Context } from '@temporalio/activity';
import type { LinkContext, NotificationPayload } from '../domain/notifications';
import { linkContext, publishNotification } from '../services/notifications/publisher';
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
    const client = Context.current().client;
    await publishNotification({ em: deps.orm.em, temporal: { client, taskQueue: deps.config.temporal.taskQueue }, config: deps.config, logger: deps.logger }, event, subjectKey);
  } catch (error) {
    deps.logger.warn({ subjectKey, errorClass: (error as Error)?.name ?? 'unknown' }, 'notification could not be published');
  }
}
