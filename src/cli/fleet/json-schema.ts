import { extendZodWithOpenApi, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { FleetFileSchema } from './schema';

extendZodWithOpenApi(z);

/** The fleet file's JSON Schema (draft 2020-12), generated from its zod schema; schemas/arrgo-fleet.schema.json is this, committed. */
export function fleetJsonSchema(): Record<string, unknown> {
  const generator = new OpenApiGeneratorV31([{ type: 'schema', schema: FleetFileSchema.openapi('ArrgoFleetFile') }]);
  const components = generator.generateComponents().components?.schemas ?? {};
  const root = components.ArrgoFleetFile as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://arrgo.dev/schemas/arrgo-fleet.schema.json',
    title: 'arrgo fleet file (arrgo.yaml)',
    description: 'Instances, databases, reference-guide sources, sync configurations, notification channels and settings of an arrgo. Secrets are `!env NAME` or `!file path` (yaml-language-server: add `!env scalar` and `!file scalar` to yaml.customTags).',
    ...root,
    // Top-level keys beginning with x- hold anchors for merge keys.
    patternProperties: { '^(x-|\\.)': {} },
    additionalProperties: false,
  };
}
