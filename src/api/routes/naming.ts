import { NAMING_TOKENS, namingChoices, previewNaming } from '../../domain/naming';
import type { ApiRouter } from '../http/route';
import { NamingPreviewBodySchema, NamingPreviewResponseSchema, NAMING_LIMITS } from '../schemas/naming';

export function registerNamingRoutes(router: ApiRouter): void {
  router.add({
    method: 'post',
    path: '/naming/preview',
    operationId: 'previewNaming',
    summary: "Render an app family's naming formats for sample movies, episodes or tracks, with the family's token help and choices",
    description: [
      `The naming is an entity's payload (as GET /pcd/{databaseId}/resolved/naming returns it, name and rename optional), formats of 1 to ${NAMING_LIMITS.formatLength} characters; anything else is a 400 naming the field.`,
      'Rendering follows the token rules the apps document (docs/naming.md): text inside a token\'s braces only with a value, the separator and case of a token name, zero-padded numbers, Plex-style {edition-{Edition Tags}}, colon replacement and illegal characters, and Sonarr\'s multi-episode styles.',
      'A pure computation: nothing is read or written.',
    ].join(' '),
    tags: ['Naming'],
    body: NamingPreviewBodySchema,
    responses: {
      200: { description: 'One preview per format and sample, and the token help', schema: NamingPreviewResponseSchema },
      400: { description: 'Invalid request (the message names the field)' },
    },
    handler: ({ body }) => ({ body: { arrType: body.arrType, previews: previewNaming(body), tokens: NAMING_TOKENS[body.arrType], choices: namingChoices(body.arrType) } }),
  });
}
