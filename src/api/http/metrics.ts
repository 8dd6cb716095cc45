import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, metricsAuthorized, metricsRegistry } from '../../platform/metrics';
import type { ApiKeyStore } from '../../platform/secrets';
import { ErrorBody } from './zod';

/**
 * Observes every request's duration by method, route template (`/api/v1/instances/{id}`, never
 * the concrete path: ids would be unbounded) and status. Unmatched paths share one label.
 */
export function httpMetrics(urlBase: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const template = req.route?.path;
      // Labels name routes as documented, without URL_BASE.
      const route = typeof template === 'string' ? `${req.baseUrl.slice(urlBase.length)}${template}`.replace(/:(\w+)/g, '{$1}') : 'unmatched';
      httpRequestDuration.observe({ method: req.method, route, status: String(res.statusCode) }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

/** GET /metrics: Prometheus text format; the API key (X-Api-Key or Bearer) unless METRICS_PUBLIC=true. */
export function metricsRoute(apiKeys: ApiKeyStore, isPublic: boolean) {
  return async (req: Request, res: Response) => {
    if (!metricsAuthorized(req.headers, (given) => apiKeys.matches(given), isPublic)) {
      res.status(401).json({ error: req.header('x-api-key') || req.header('authorization') ? 'Invalid API key' : 'API key required: send it in the X-Api-Key header or as a Bearer token (or set METRICS_PUBLIC=true)' });
      return;
    }
    res.setHeader('Content-Type', metricsRegistry.contentType);
    res.send(await metricsRegistry.metrics());
  };
}

export function documentMetricsRoute(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    summary: 'Prometheus metrics (text exposition format)',
    description: [
      'Outside /api/v1, where scrapers look (under URL_BASE when set). Needs the API key (X-Api-Key, or `Authorization: Bearer`, which Prometheus sends with `authorization: {credentials: …}`) unless METRICS_PUBLIC=true.',
      'Metrics: arrgo_http_request_duration_seconds{method,route,status}, arrgo_sync_runs_total{status,trigger}, arrgo_sync_apply_duration_seconds{status},',
      'arrgo_instances{drift_status}, arrgo_rollouts{status}, arrgo_rollout_gate_wait_seconds, arrgo_pcd_cache_builds_total{layer,result}, arrgo_pcd_cache_build_duration_seconds{layer},',
      'arrgo_notification_deliveries_total{result,channel_kind}, arrgo_worker_activity_schedule_to_start_seconds{activity}, arrgo_worker_activity_execution_seconds{activity,outcome}, and the process metrics (arrgo_process_*, arrgo_nodejs_*).',
      'Labels are bounded sets: never an id, a name, a URL or a secret. See docs/metrics.md.',
    ].join(' '),
    tags: ['Metrics'],
    security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }, {}],
    responses: {
      200: { description: 'The metrics', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
      401: { description: 'Missing or wrong API key (and METRICS_PUBLIC is not true)', content: { 'application/json': { schema: ErrorBody } } },
    },
  });
}
