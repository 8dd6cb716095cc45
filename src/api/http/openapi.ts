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

/** `urlBase`: the URL_BASE arrgo is served under (the document's server URL). */
export function buildOpenApiDocument(registry: OpenAPIRegistry, version: string, urlBase = '') {
  registry.registerComponent('securitySchemes', 'ApiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'The arrgo API key (ARRGO_API_KEY, or the key generated into DATA_DIR/api-key on first start)',
  });
  registry.registerComponent('securitySchemes', 'BearerAuth', { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token' });
  registry.registerComponent('securitySchemes', 'SessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'arrgo_session',
    description:
      'The console session, set by POST /api/v1/auth/login (or /auth/setup). Requests other than GET, HEAD and OPTIONS signed in with it must also send the X-Arrgo-Csrf header with the csrfToken of GET /api/v1/auth/status (403 otherwise).',
  });
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'arrgo API',
      version,
      description:
        'Configuration management for Radarr (movie_app), Sonarr (series_app) and Lidarr (music_app). ' +
        'Every endpoint except GET /api/v1/health, this document and the sign-in routes (GET /auth/status, POST /auth/setup, POST /auth/login) needs the API key or a console session cookie. Errors are {"error": "..."}.',
    },
    servers: [{ url: urlBase || '/' }],
  });
}
