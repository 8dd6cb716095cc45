import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import express, { type Express, type Router } from 'express';
import { loadConfig } from '../config';
import type { ApiDeps } from './deps';
import { docsRouter } from './http/docs';
import { JSON_BODY_TYPES, accessLog, errorHandler, notFoundRoute, ormRequestContext, requestId, requireJsonBody } from './http/middleware';
import { authenticate } from './http/auth';
import { DEFAULT_WEB_ROOT, consoleRouter } from './http/console';
import { registerAdoptionRoutes } from './routes/adoptions';
import { registerAuthRoutes } from './routes/auth';
import { OPENAPI_PATH, buildOpenApiDocument, documentOpenApiRoute } from './http/openapi';
import { ApiRouter } from './http/route';
import { registerServiceHealthRoutes } from './routes/service-health';
import { registerCanaryRoutes } from './routes/canary';
import { registerCompareRoutes } from './routes/compare';
import { registerConfigHealthRoutes } from './routes/config-health';
import { registerCustomFormatRoutes } from './routes/custom-formats';
import { registerDatabaseRoutes } from './routes/databases';
import { registerDriftRoutes } from './routes/drift';
import { registerEntityTestingRoutes } from './routes/entity-testing';
import { registerFleetRoutes } from './routes/fleet';
import { registerGoalRoutes } from './routes/goals';
import { registerInstanceRoutes } from './routes/instances';
import { registerNamingRoutes } from './routes/naming';
import { registerPcdRoutes } from './routes/pcd';
import { registerRefGuideRoutes } from './routes/ref-guide';
import { registerSyncRoutes } from './routes/sync';
import { registerSyncConfigRoutes } from './routes/sync-config';
import { registerSyncHistoryRoutes } from './routes/sync-history';
import { registerSnapshotRoutes } from './routes/snapshots';
import { registerTimelineRoutes } from './routes/timeline';
import { registerUiPreferenceRoutes } from './routes/ui-preferences';
import { registerNotificationRoutes } from './routes/notifications';
import { documentMetricsRoute, httpMetrics, metricsRoute } from './http/metrics';

export const API_PREFIX = '/api/v1';

/** Registers every route; also used to generate the OpenAPI document without starting a server. */
export function buildApiRouter(deps: ApiDeps): ApiRouter {
  const router = new ApiRouter(new OpenAPIRegistry());
  registerServiceHealthRoutes(router, deps);
  registerAuthRoutes(router, deps);
  registerInstanceRoutes(router, deps);
  registerFleetRoutes(router, deps);
  registerDatabaseRoutes(router, deps);
  registerPcdRoutes(router, deps);
  registerAdoptionRoutes(router, deps);
  registerNamingRoutes(router);
  registerCustomFormatRoutes(router);
  registerGoalRoutes(router, deps);
  registerSyncConfigRoutes(router, deps);
  registerSyncRoutes(router, deps);
  registerCanaryRoutes(router, deps);
  registerDriftRoutes(router, deps);
  registerConfigHealthRoutes(router, deps);
  registerSyncHistoryRoutes(router, deps);
  registerSnapshotRoutes(router, deps);
  registerTimelineRoutes(router, deps);
  registerRefGuideRoutes(router, deps);
  registerEntityTestingRoutes(router, deps);
  registerUiPreferenceRoutes(router, deps);
  registerCompareRoutes(router, deps);
  registerNotificationRoutes(router, deps);
  documentMetricsRoute(router.registry);
  documentOpenApiRoute(router.registry);
  return router;
}

/**
 * The OpenAPI document without a running service (the generated client, `npm run generate:client`):
 * registering a route keeps the dependencies for its handler, which never runs here; the default
 * configuration is there for the services built at registration (their caches' bounds).
 */
export function buildApiDocument(version: string) {
  const registrationOnly = { config: loadConfig({}) } as ApiDeps;
  return buildOpenApiDocument(buildApiRouter(registrationOnly).registry, version);
}

export interface AppOptions {
  /** Routes mounted under the API prefix behind the same middleware (benchmarks' baselines only). */
  extraRoutes?: (router: Router) => void;
  /** The console's web build (default `<repo>/dist/web`; tests serve their own). */
  webRoot?: string;
}

/**
 * Everything is served under URL_BASE (`/arrgo` behind a reverse proxy; '' at the root): the API,
 * the docs page, /metrics and the console. With a base, `/` redirects to it and nothing else
 * answers outside it.
 */
export function createApp(deps: ApiDeps, options: AppOptions = {}): Express {
  const { urlBase } = deps.config;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // One reverse proxy in front: req.secure and req.ip follow its X-Forwarded-Proto and X-Forwarded-For.
  app.set('trust proxy', deps.config.trustProxy ? 1 : false);
  const api = buildApiRouter(deps);
  const openApi = buildOpenApiDocument(api.registry, deps.version, urlBase);

  app.use(requestId(deps.logger));
  app.use(accessLog());
  app.use(httpMetrics(urlBase));
  const site = express.Router();
  site.get('/metrics', metricsRoute(deps.apiKeys, deps.config.metrics.public));
  site.use('/docs', docsRouter());
  site.use(
    API_PREFIX,
    authenticate({
      apiKeys: deps.apiKeys,
      auth: deps.auth,
      isPublic: (method, path) => api.isPublic(method, path) || ((method === 'GET' || method === 'HEAD') && path === OPENAPI_PATH),
      cookiePath: `${urlBase}/`,
    }),
  );
  site.use(API_PREFIX, requireJsonBody());
  site.use(API_PREFIX, express.json({ limit: '5mb', strict: false, type: JSON_BODY_TYPES }));
  site.use(API_PREFIX, ormRequestContext(deps.orm));
  site.get(`${API_PREFIX}${OPENAPI_PATH}`, (_req, res) => {
    res.json(openApi);
  });
  if (options.extraRoutes) {
    const extra = express.Router();
    options.extraRoutes(extra);
    site.use(API_PREFIX, extra);
  }
  site.use(API_PREFIX, api.router);
  site.use(consoleRouter({ webRoot: options.webRoot ?? DEFAULT_WEB_ROOT, urlBase }));
  if (urlBase) {
    app.use(urlBase, site);
    app.get('/', (_req, res) => res.redirect(302, `${urlBase}/`));
  } else {
    app.use(site);
  }
  app.use(notFoundRoute());
  app.use(errorHandler());
  return app;
}
