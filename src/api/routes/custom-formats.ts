import { ARR_TYPES } from '../../domain/arr-types';
import { conditionTypeCatalog, IMPLEMENTATIONS } from '../../domain/sync';
import type { ApiRouter } from '../http/route';
import { z } from '../http/zod';

const ConditionTypesSchema = z
  .object({
    types: z.array(
      z.object({
        type: z.enum(Object.keys(IMPLEMENTATIONS) as [string, ...string[]]).openapi({ description: 'PCD condition type' }),
        apps: z.array(z.enum(ARR_TYPES)).openapi({ description: 'App families whose custom formats have this condition type; a sync leaves it out for the others' }),
        kind: z.enum(['pattern', 'value', 'language', 'size', 'year']).openapi({
          description: 'pattern: a regular expression of the database, by name; value: one of values; language: a language name (with exceptLanguage); size: minBytes/maxBytes; year: minYear/maxYear',
        }),
        fields: z.array(z.string()).openapi({ description: "The condition's payload fields besides name, arrType, negate and required" }),
        values: z.record(z.array(z.string())).openapi({ description: 'Kinds value and language: the values each app family has (PCD spellings); a value an app lacks is left out by a sync' }),
      }),
    ),
  })
  .openapi('ConditionTypes');

export function registerCustomFormatRoutes(router: ApiRouter): void {
  router.add({
    method: 'get',
    path: '/custom-formats/condition-types',
    operationId: 'listConditionTypes',
    summary: 'The custom-format condition types, the app families that have each, and the values a condition may hold per family',
    description: 'The facts a sync writes custom formats with (Radarr 6.1, Sonarr 4.0.19, Lidarr 2.14.5): editors offer exactly these. Static: the same for every database.',
    tags: ['Custom formats'],
    responses: { 200: { description: 'Every condition type', schema: ConditionTypesSchema } },
    handler: () => ({ body: { types: conditionTypeCatalog() } }),
  });
}
