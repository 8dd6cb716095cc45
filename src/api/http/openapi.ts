import { OpenApiGeneratorV3, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

export const OPENAPI_PATH = '/openapi.json';

/**
 * The document is public, so the docs page loads without a key: it describes routes and schemas
 * only (relative server URL, no host, no key, no setting's value).
 */
export function documentOpenApiRoute(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: `/api/v1${OPENAPI_PATH}`,
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3 document (public: no key needed; the docs page at /docs/ reads it)',
    tags: ['Docs'],
    security: [],
    responses: { 200: { description: 'The OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } } },
  });
}

export function buildOpenApiDocument(registry: OpenAPIRegistry, version: string) {
  registry.registerComponent('securitySchemes', 'ApiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'The arrgo API key (ARRGO_API_KEY, or the key generated into DATA_DIR/api-key on first start)',
  });
  registry.registerComponent('securitySchemes', 'BearerAuth', { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token' });
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'arrgo API',
      version,
      description:
        'Configuration management for Radarr (movie_app), Sonarr (series_app) and Lidarr (music_app). ' +
        'Every endpoint except GET /api/v1/health and this document needs the API key. Errors are {"error": "..."}.',
    },
    servers: [{ url: '/' }],
  });
}
