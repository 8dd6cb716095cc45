import { OpenApiGeneratorV3, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

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
        'Every endpoint except GET /api/v1/health needs the API key. Errors are {"error": "..."}.',
    },
    servers: [{ url: '/' }],
  });
}
