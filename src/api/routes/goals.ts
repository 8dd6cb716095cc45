import { notReadyAsBadRequest } from '../../services/field-errors';
import type { ApiDeps } from '../deps';
import type { ApiRouter } from '../http/route';
import { goalCatalog, GoalService } from '../../services/goals/goal-service';
import { GoalApplyRequestSchema, GoalApplyResultSchema, GoalCatalogSchema, GoalPreviewSchema, GoalRequestSchema } from '../schemas/goals';

const tags = ['Goals'];

export function registerGoalRoutes(router: ApiRouter, deps: ApiDeps): void {
  const goals = GoalService.of(deps);

  router.add({
    method: 'get',
    path: '/goals/presets',
    operationId: 'listGoalPresets',
    summary: 'The goal presets (base scores and suggested sliders), the categories, each slider\'s sensitivities and the score range (beyond the spec)',
    tags,
    responses: { 200: { description: 'The goal catalog', schema: GoalCatalogSchema } },
    handler: () => ({ body: goalCatalog() }),
  });

  router.add({
    method: 'post',
    path: '/goals/preview',
    operationId: 'previewGoal',
    summary: 'Turn a preset and five sliders into custom-format scores, thresholds and a quality ladder for one profile, with the exact profile diff; nothing is persisted',
    description:
      'Scores compile in a throwaway sandbox copy of the resolved database. 400: invalid request, unknown preset (the message lists the presets), profile not compatible with arrType, or database cache not ready; 404: database or profile not found. See docs/goals.md.',
    tags,
    body: GoalRequestSchema,
    responses: { 200: { description: 'The plan and the sandbox diff', schema: GoalPreviewSchema }, 404: { description: 'No such database or quality profile' } },
    handler: async ({ body }) => {
      try {
        return { body: await goals.preview(body) };
      } catch (error) {
        throw notReadyAsBadRequest(error);
      }
    },
  });

  router.add({
    method: 'post',
    path: '/goals/apply',
    operationId: 'applyGoal',
    summary: 'Adopt a previewed goal: store its changes to the profile as a value-guarded user-layer op (revert it with DELETE /pcd/{databaseId}/user-ops/{opId})',
    description:
      'Beyond the spec. Takes the preview request plus the engineVersion and databaseVersion the preview returned. 409 when the database changed since the preview (code stale) or the engine version differs (code engine_changed).',
    tags,
    body: GoalApplyRequestSchema,
    responses: {
      200: { description: 'Stored; ops is empty when the plan changes nothing', schema: GoalApplyResultSchema },
      404: { description: 'No such database or quality profile' },
      409: { description: 'The database or the engine moved since the preview: preview again' },
    },
    handler: async ({ body }) => {
      try {
        return { body: await goals.apply(body) };
      } catch (error) {
        throw notReadyAsBadRequest(error);
      }
    },
  });
}
