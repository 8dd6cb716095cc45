// Goals: the preset catalog, the live plan of a preset and five sliders for one profile (a preview
// that stores nothing), adopting it as a value-guarded user-layer op, and reverting that op.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';
import { pcdKeys, usePcdChanged } from './pcd';

type Schemas = components['schemas'];
export type GoalCatalog = Schemas['GoalCatalog'];
export type GoalRequest = Schemas['GoalRequest'];
export type GoalWeights = Schemas['GoalWeights'];
export type GoalPreview = Schemas['GoalPreview'];
export type GoalApplyResult = Schemas['GoalApplyResult'];

export const goalKeys = {
  catalog: ['goals', 'catalog'] as const,
  // A plan is a view of the database's PCD state: under its key, every edit, revert, adopt or
  // rollback of the database (usePcdChanged) computes it again.
  preview: (request: GoalRequest) => [...pcdKeys.database(request.databaseId), 'goal-preview', request] as const,
};

export function useGoalCatalog() {
  return useQuery({ queryKey: goalKeys.catalog, queryFn: () => unwrap(api.GET('/api/v1/goals/presets')), staleTime: Infinity });
}

/**
 * The plan for a request (null: nothing to ask yet). The previous plan stays on the page while the
 * next one loads, and a request made stale by a newer one is aborted (its signal).
 */
export function useGoalPreview(request: GoalRequest | null) {
  return useQuery({
    queryKey: request ? goalKeys.preview(request) : ['goals', 'preview', 'none'],
    enabled: request !== null,
    queryFn: ({ signal }) => unwrap(api.POST('/api/v1/goals/preview', { body: request!, signal })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });
}

/**
 * Adopts a previewed plan: 409 (stale, engine_changed) when the database or engine moved since.
 * Revert what it stored with useRevertUserOp (pcd.ts), op by op.
 */
export function useApplyGoal() {
  const changed = usePcdChanged();
  return useMutation({
    mutationFn: (body: Schemas['GoalApplyRequest']) => unwrap(api.POST('/api/v1/goals/apply', { body })),
    onSettled: (_data, _error, body) => changed(body.databaseId),
  });
}
