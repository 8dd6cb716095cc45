import type { ApiDeps } from '../deps';
import { page, paginated, paginationQuery } from '../http/pagination';
import type { ApiRouter, HandlerResult } from '../http/route';
import { z } from '../http/zod';
import { SECTION_UPDATES_PER_WINDOW, SECTION_UPDATE_WINDOW_SECONDS } from '../../services/ui-preferences/section-store';
import { UiPreferencesService, type PatchOutcome } from '../../services/ui-preferences/preferences-service';
import { ComplexityTierPatchSchema, ComplexityTierSchema, UiPreferencePatchSchema, UiPreferenceSchema, conflictBody } from '../schemas/ui-preferences';

const tags = ['UI preferences'];
const rateLimit = `Updates are rate-limited per section: at most ${SECTION_UPDATES_PER_WINDOW} stored updates per ${SECTION_UPDATE_WINDOW_SECONDS} s (429 with Retry-After); a request that changes nothing is not counted. The count is kept in the database, across every API process.`;
const retryAfter = { 'Retry-After': { description: 'Seconds until the section may be updated again', schema: { type: 'integer' as const } } };

function patchResult<V>(result: PatchOutcome<V>, what: string): HandlerResult {
  if (result.outcome === 'conflict') return { status: 409, body: { error: `The ${what} changed since expected_updated_at; merge with current and retry`, current: result.current } };
  return { body: result.view };
}

export function registerUiPreferenceRoutes(router: ApiRouter, deps: ApiDeps): void {
  const service = UiPreferencesService.of(deps);

  router.add({
    method: 'get',
    path: '/ui-preferences',
    operationId: 'listUiPreferences',
    summary: 'Stored disclosure modes of every section, by section key',
    tags,
    query: z.object({ ...paginationQuery }).strict(),
    responses: { 200: { description: 'A page of sections', schema: paginated(UiPreferenceSchema) } },
    handler: async ({ query }) => {
      const { items, total } = await service.listPreferences((query.page - 1) * query.pageSize, query.pageSize);
      return { body: page(items, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'patch',
    path: '/ui-preferences',
    operationId: 'updateUiPreference',
    summary: 'Create or update the disclosure mode of a section',
    description: rateLimit,
    tags,
    body: UiPreferencePatchSchema,
    responses: {
      200: { description: 'The section as stored', schema: UiPreferenceSchema },
      409: { description: 'expected_updated_at does not match; `current` is the stored row (null when none)', schema: conflictBody(UiPreferenceSchema) },
      429: { description: 'Updates of the section rate-limited', headers: retryAfter },
    },
    handler: async ({ body }) => patchResult(await service.patchPreference(body.section_key, body.mode, body.expected_updated_at), 'UI preference'),
  });

  router.add({
    method: 'get',
    path: '/complexity-tiers',
    operationId: 'listComplexityTiers',
    summary: 'Stored complexity tiers of every section, by section key',
    tags,
    query: z.object({ ...paginationQuery }).strict(),
    responses: { 200: { description: 'A page of sections', schema: paginated(ComplexityTierSchema) } },
    handler: async ({ query }) => {
      const { items, total } = await service.listTiers((query.page - 1) * query.pageSize, query.pageSize);
      return { body: page(items, total, query.page, query.pageSize) };
    },
  });

  router.add({
    method: 'patch',
    path: '/complexity-tiers',
    operationId: 'updateComplexityTier',
    summary: 'Create or update the complexity tier of a section, adding activity counts',
    description: rateLimit,
    tags,
    body: ComplexityTierPatchSchema,
    responses: {
      200: { description: 'The section as stored, with any tier suggestion', schema: ComplexityTierSchema },
      409: { description: 'expected_updated_at does not match; `current` is the stored row (null when none)', schema: conflictBody(ComplexityTierSchema) },
      429: { description: 'Updates of the section rate-limited', headers: retryAfter },
    },
    handler: async ({ body }) =>
      patchResult(
        await service.patchTier(
          body.section_key,
          {
            tier: body.tier,
            interactionDelta: body.interaction_delta,
            advancedToggleDelta: body.advanced_toggle_delta,
            lastSuggestedTier: body.last_suggested_tier,
            suggestionDismissedAt: body.suggestion_dismissed_at,
          },
          body.expected_updated_at,
        ),
        'complexity tier',
      ),
  });
}
