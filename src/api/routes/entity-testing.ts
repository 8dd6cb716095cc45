import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { EvaluateBodySchema, EvaluateResponseSchema, EVALUATE_LIMITS, REGEX_TEST_LIMITS, RegexTestBodySchema, RegexTestResponseSchema } from '../schemas/evaluation';

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

  router.add({
    method: 'post',
    path: '/entity-testing/regex',
    operationId: 'testRegex',
    summary: 'Match a .NET regular expression against test strings as the apps do, and as JavaScript would, with the constructs the two read differently',
    description: [
      `A pattern of 1 to ${REGEX_TEST_LIMITS.patternLength} characters and up to ${REGEX_TEST_LIMITS.testStrings} test strings of 1 to ${REGEX_TEST_LIMITS.testStringLength}; anything else is a 400 naming the field.`,
      'Matching is case-insensitive, as the apps match custom-format patterns. dotnet is the answer custom-format evaluation gives (the .NET translation of docs/evaluation.md); javascript is what a JavaScript RegExp with the i flag answers for the same text, and differs flags where they disagree.',
      'A pattern .NET would refuse, or that has no faithful JavaScript translation, is answered with valid false and the reason (not a 400): the editor shows it as it is typed.',
      "Each match has the same deadline as release evaluation; a match running past it is stopped and reported as timedOut, and so are that reading's matches of the later test strings (they are not run: one pathological pattern cannot hold the request for a deadline per string).",
    ].join(' '),
    tags: ['Entity testing'],
    body: RegexTestBodySchema,
    responses: {
      200: { description: 'The pattern, its dialect differences and one result per test string, in request order', schema: RegexTestResponseSchema },
      400: { description: 'Invalid request (the message names the field)' },
    },
    handler: async ({ body }) => ({ body: await deps.evaluation.regexTests.test(body.pattern, body.testStrings) }),
  });
}
