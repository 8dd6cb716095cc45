import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { EvaluateBodySchema, EvaluateResponseSchema, EVALUATE_LIMITS } from '../schemas/evaluation';

export function registerEntityTestingRoutes(router: ApiRouter, deps: ApiDeps): void {
  router.add({
    method: 'post',
    path: '/entity-testing/evaluate',
    operationId: 'evaluateReleases',
    summary: 'Parse release titles and evaluate them against every custom format of a database, with .NET-compatible regex matching',
    description: [
      `Up to ${EVALUATE_LIMITS.releases} releases a request, titles of 1 to ${EVALUATE_LIMITS.titleLength} characters, unique release ids; anything else is a 400 naming the field.`,
      'databaseId is optional: without it only parsing runs and cfMatches is {}.',
      "Matching follows the apps: conditions are grouped by type; a group passes when no required condition fails and at least one passes (negate applied first); a format matches when every group passes. Release-title conditions match the title without the characters <>?*|; release-group and edition conditions match the parsed fields. A release of type movie is evaluated with the conditions Radarr would have, series with Sonarr's.",
      'Conditions a title cannot decide (size, indexer flags, the original language) never make a format match: such formats are false in cfMatches and listed in cfUndecided. Every regex match has a deadline; a pattern running past it counts as no match and is reported in warnings.',
      'Results are cached per title, type and parser version, and per database cache state (a rebuilt cache invalidates them).',
    ].join(' '),
    tags: ['Entity testing'],
    body: EvaluateBodySchema,
    responses: {
      200: { description: 'One evaluation per release, in request order', schema: EvaluateResponseSchema },
      400: { description: 'Invalid request (the message names the field)' },
      404: { description: 'No such database, or no such quality profile in it' },
      503: { description: 'The database cache is not available (not pulled yet, building, disabled or failed)' },
    },
    handler: async ({ body }) => ({ body: await deps.evaluation.evaluate(body) }),
  });
}
