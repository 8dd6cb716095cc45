import { AdoptionService } from '../../services/adoptions/adoption-service';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { waitedResponse, waitMs, waitQuery } from '../http/wait';
import { idParam, z } from '../http/zod';
import { AdoptionCreateSchema, AdoptionSchema } from '../schemas/adoptions';

const tags = ['Adoption'];
const IdParams = z.object({ id: idParam() });

export function registerAdoptionRoutes(router: ApiRouter, deps: ApiDeps): void {
  const adoptions = () => new AdoptionService(deps);

  router.add({
    method: 'post',
    path: '/instances/{id}/adopt',
    operationId: 'adoptInstance',
    summary: "Preview adopting an instance's own configuration into a database's user layer (a Temporal workflow)",
    description:
      "The workflow asks the app who it is, reads its custom formats, quality profiles, delay profile, naming, media settings, quality definitions (and Lidarr's metadata profiles), and plans them against the database: " +
      'creates for what the database lacks, field-level overrides for same-named entities (only the fields that differ), skipped entries with their reason. Nothing is written until POST /adoptions/{id}/apply.',
    tags,
    params: IdParams,
    body: AdoptionCreateSchema,
    query: z.object(waitQuery('the preview is generated: status ready, or failed')),
    responses: {
      202: { description: 'Generating (not waited for, or the wait bound passed); follow GET /adoptions/{id}', schema: AdoptionSchema },
      200: { description: 'Generated (wait=true): status ready or failed', schema: AdoptionSchema },
      404: { description: 'No such instance or database' },
      409: { description: 'The database is not pulled or ready yet (code database_not_ready), or an adoption of the instance is being applied (code adoption_in_progress)' },
    },
    handler: async ({ params, body, query }) => waitedResponse(await adoptions().start(params.id, body, waitMs(query))),
  });

  router.add({
    method: 'get',
    path: '/instances/{id}/adoptions',
    operationId: 'listInstanceAdoptions',
    summary: 'The adoptions of an instance, newest first (at most 100)',
    tags,
    params: IdParams,
    responses: { 200: { description: 'Adoptions', schema: z.array(AdoptionSchema) }, 404: { description: 'No such instance' } },
    handler: async ({ params }) => ({ body: await adoptions().listForInstance(params.id) }),
  });

  router.add({
    method: 'get',
    path: '/adoptions/{id}',
    operationId: 'getAdoption',
    summary: 'One adoption: status, what is created, overridden (with field changes), skipped (with reasons) and unchanged; once applied, its op ids and snapshot',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The adoption', schema: AdoptionSchema }, 404: { description: 'No such adoption' } },
    handler: async ({ params }) => ({ body: await adoptions().get(params.id) }),
  });

  router.add({
    method: 'post',
    path: '/adoptions/{id}/apply',
    operationId: 'applyAdoption',
    summary: 'Apply a ready adoption: one snapshot of the database, then the user ops (each revertible), then (select) the sync configuration',
    description:
      'Refused with 409: code not_ready when it is not ready, applied when it was applied already, stale when it expired or the database changed since the preview (start a new adoption). ' +
      'The apply is idempotent: a retried or resumed attempt never stores an op twice.',
    tags,
    params: IdParams,
    query: z.object(waitQuery('the apply has finished: status applied or failed')),
    responses: {
      202: { description: 'Applying (not waited for, or the wait bound passed)', schema: AdoptionSchema },
      200: { description: 'Applied or failed (wait=true)', schema: AdoptionSchema },
      404: { description: 'No such adoption' },
      409: { description: 'Not ready (code not_ready), already applied (code applied), or stale (code stale)' },
    },
    handler: async ({ params, query }) => waitedResponse(await adoptions().apply(params.id, waitMs(query))),
  });

  router.add({
    method: 'delete',
    path: '/adoptions/{id}',
    operationId: 'discardAdoption',
    summary: 'Discard a ready adoption (nothing is written; it stays listed as discarded)',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'Discarded', schema: AdoptionSchema },
      404: { description: 'No such adoption' },
      409: { description: 'Not ready (code not_ready), already applied (code applied), or expired (code stale)' },
    },
    handler: async ({ params }) => ({ body: await adoptions().discard(params.id) }),
  });
}
