import type { InstanceTestResult } from '../../activities';
import { APP_OF } from '../../domain/arr-types';
import { failureEvidence } from '../../domain/failure-evidence';
import { InstanceService } from '../../services/instance-service';
import { executeWorkflow } from '../../services/workflow-runner';
import { SA } from '../../workflows/search-attributes';
import type { ApiDeps } from '../deps';
import { page, paginated, paginationQuery } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { booleanQuery, idParam, text, z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';
import { InstanceCreateSchema, InstancePatchSchema, InstanceSchema, InstanceTestResultSchema } from '../schemas/instances';

const IdParams = z.object({ id: idParam() });
const tags = ['Instances'];

export function registerInstanceRoutes(router: ApiRouter, deps: ApiDeps): void {
  const service = () => new InstanceService(deps.orm.em, deps.secretBox);

  router.add({
    method: 'post',
    path: '/instances',
    operationId: 'createInstance',
    summary: 'Register a Radarr, Sonarr or Lidarr instance',
    description: 'The API key is stored encrypted (AES-256-GCM) and is never returned or logged.',
    tags,
    body: InstanceCreateSchema,
    responses: { 201: { description: 'Created', schema: InstanceSchema } },
    handler: async ({ body }) => ({ status: 201, body: await service().create(body) }),
  });

  router.add({
    method: 'get',
    path: '/instances',
    operationId: 'listInstances',
    summary: 'List instances',
    tags,
    query: z.object({ arrType: ArrTypeSchema.optional(), enabled: booleanQuery.optional(), tag: text({ min: 1, max: 50 }).optional(), ...paginationQuery }),
    responses: { 200: { description: 'Instances, oldest first', schema: paginated(InstanceSchema) } },
    handler: async ({ query }) => {
      const { items, total } = await service().list(query);
      return { body: page(items, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'get',
    path: '/instances/{id}',
    operationId: 'getInstance',
    summary: 'Get one instance',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The instance', schema: InstanceSchema }, 404: { description: 'No such instance' } },
    handler: async ({ params }) => ({ body: await service().get(params.id) }),
  });

  router.add({
    method: 'patch',
    path: '/instances/{id}',
    operationId: 'updateInstance',
    summary: 'Change an instance (any subset of fields; apiKey replaces the stored key)',
    tags,
    params: IdParams,
    body: InstancePatchSchema,
    responses: { 200: { description: 'The updated instance', schema: InstanceSchema }, 404: { description: 'No such instance' } },
    handler: async ({ params, body }) => ({ body: await service().update(params.id, body) }),
  });

  router.add({
    method: 'delete',
    path: '/instances/{id}',
    operationId: 'deleteInstance',
    summary: 'Remove an instance from arrgo (nothing in the app is touched)',
    tags,
    params: IdParams,
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such instance' } },
    handler: async ({ params }) => {
      await service().delete(params.id);
      return { status: 204 };
    },
  });

  router.add({
    method: 'post',
    path: '/instances/{id}/test',
    operationId: 'testInstance',
    summary: "Test the connection: calls the app's system/status with the stored key (a Temporal workflow)",
    tags,
    params: IdParams,
    responses: {
      200: { description: 'reachable with appName and version, or a sanitized reason', schema: InstanceTestResultSchema },
      404: { description: 'No such instance' },
    },
    handler: async ({ params }) => {
      const instance = await service().get(params.id);
      const result = await executeWorkflow<InstanceTestResult>(deps.temporal, 'instanceTestWorkflow', {
        idPrefix: `instance-test-${instance.id}`,
        args: [instance.id],
        executionTimeout: '2 minutes',
        staticSummary: `Connection test of ${APP_OF[instance.arrType].label} instance "${instance.name}"`,
        searchAttributes: [
          { key: SA.kind, value: 'instance-test' },
          { key: SA.arrType, value: instance.arrType },
          { key: SA.instanceIds, value: [String(instance.id)] },
        ],
      });
      if (result.reachable) return { body: result };
      const evidence = failureEvidence(result.reason);
      return { body: { reachable: false, reason: result.reason, message: evidence.message, recoveryAction: evidence.recoveryAction } };
    },
  });
}
