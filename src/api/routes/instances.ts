import { registerInstance, testInstanceConnection, updateInstance } from '../../services/instances/connection-test';
import { InstanceService } from '../../services/instances/instance-service';
import type { ApiDeps } from '../deps';
import { page, paginated, paginationQuery } from '../http/pagination';
import type { ApiRouter } from '../http/route';
import { booleanQuery, idParam, text, z } from '../http/zod';
import { ArrTypeSchema } from '../schemas/common';
import { InstanceCreateSchema, InstancePatchSchema, InstanceRefusalSchema, InstanceRegisteredSchema, InstanceSchema, InstanceTestResultSchema, InstanceUpdatedSchema } from '../schemas/instances';

const IdParams = z.object({ id: idParam() });
const tags = ['Instances'];

export function registerInstanceRoutes(router: ApiRouter, deps: ApiDeps): void {
  const service = () => InstanceService.of(deps);

  router.add({
    method: 'post',
    path: '/instances',
    operationId: 'createInstance',
    summary: 'Register a Radarr, Sonarr or Lidarr instance (its connection is tested first)',
    description:
      "The connection is tested first, as POST /instances/{id}/test does (the app's system/status, in a Temporal workflow; at most APP_REQUEST_TIMEOUT_MS for the app's answer). " +
      'An app of another type than arrType is refused with 400 (code appMismatch, the message names both app types) and nothing is stored. ' +
      'An app that cannot be reached, times out or rejects the key is still registered: the answer carries the test outcome (reason, message, recoveryAction) and the instance is unverified. ' +
      'The API key is stored encrypted (AES-256-GCM) and is never returned or logged.',
    tags,
    body: InstanceCreateSchema,
    responses: {
      201: { description: 'Registered: verified, or unverified with the reason in connectionTest and verification', schema: InstanceRegisteredSchema },
      400: { description: 'Invalid request (the message names the field); code appMismatch: the app at baseUrl is of another app type than arrType (the message names both)', schema: InstanceRefusalSchema },
    },
    handler: async ({ body }) => ({ status: 201, body: await registerInstance(deps, body) }),
  });

  router.add({
    method: 'get',
    path: '/instances',
    operationId: 'listInstances',
    summary: 'List instances',
    tags,
    query: z.object({
      arrType: ArrTypeSchema.optional(),
      enabled: booleanQuery.optional(),
      tag: text({ min: 1, max: 50 }).optional(),
      verified: booleanQuery.optional().openapi({ description: 'true: verified instances only; false: unverified and never-verified ones (verification.status says which)' }),
      ...paginationQuery,
    }),
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
    description:
      'A change of baseUrl, arrType or apiKey is tested first, as a registration is: an app of another type is refused with 400 (code appMismatch) and the stored values stay; ' +
      'an app that cannot be reached is changed anyway and the instance is unverified (connectionTest says why).',
    tags,
    params: IdParams,
    body: InstancePatchSchema,
    responses: {
      200: { description: 'The updated instance; connectionTest when the app values changed', schema: InstanceUpdatedSchema },
      400: { description: 'Invalid request (the message names the field); code appMismatch: the app at the new values is of another app type (the message names both)', schema: InstanceRefusalSchema },
      404: { description: 'No such instance' },
    },
    handler: async ({ params, body }) => ({ body: await updateInstance(deps, params.id, body) }),
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
    summary: "Test the connection: calls the app's system/status with the stored key (a Temporal workflow); the instance's verification records the outcome",
    tags,
    params: IdParams,
    responses: {
      200: { description: 'reachable with appName and version (reason appMismatch when the app is of another type), or a sanitized reason', schema: InstanceTestResultSchema },
      404: { description: 'No such instance' },
    },
    handler: async ({ params }) => ({ body: await testInstanceConnection(deps, params.id) }),
  });
}
