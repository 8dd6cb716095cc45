import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, type components } from './client';

type Schemas = components['schemas'];
export type Rollout = Schemas['CanaryRollout'];
export type RolloutStatus = Rollout['status'];
export type RolloutStart = Schemas['CanaryRolloutStart'];
export type PrecheckRefusal = Schemas['CanaryPrecheckRefusal'];
export type GateAction = 'proceed' | 'abort' | 'refresh-evidence';

export const ROLLOUTS_PAGE_SIZE = 25;

/** A rollout has ended when the API stamps its finish (completed, aborted or failed). */
export function hasEnded(rollout: Pick<Rollout, 'finishedAt'>): boolean {
  return rollout.finishedAt !== null;
}

/** A running rollout is read again every second, so a transition shows within two. */
export const LIVE_REFETCH_MS = 1_000;

export const rolloutKeys = {
  all: ['rollouts'] as const,
  page: (status: RolloutStatus | null, page: number) => ['rollouts', 'page', status, page] as const,
  one: (id: number) => ['rollouts', id] as const,
};

export function useRolloutPage(status: RolloutStatus | null, page: number) {
  return useQuery({
    queryKey: rolloutKeys.page(status, page),
    queryFn: () => unwrap(api.GET('/api/v1/canary/rollouts', { params: { query: { page, pageSize: ROLLOUTS_PAGE_SIZE, ...(status ? { status } : {}) } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((r) => !hasEnded(r)) ? 5_000 : false),
  });
}

export function useRollout(id: number) {
  return useQuery({
    queryKey: rolloutKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/v1/canary/rollouts/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && hasEnded(query.state.data) ? false : LIVE_REFETCH_MS),
  });
}

/** The canary's own sync preview (what it received), when it has one. */
export function useCanaryPreview(previewId: number | null) {
  return useQuery({
    queryKey: ['sync-previews', previewId],
    queryFn: () => unwrap(api.GET('/api/v1/sync/previews/{id}', { params: { path: { id: previewId! } } })),
    enabled: previewId !== null,
  });
}

/** The pre-check's refusal (409 canary_in_sync / fleet_in_sync), when that is what the error is. */
export function precheckRefusal(error: unknown): PrecheckRefusal | null {
  if (!(error instanceof ApiError) || error.status !== 409 || !error.body || typeof error.body !== 'object') return null;
  const body = error.body as Partial<PrecheckRefusal>;
  return body.code === 'canary_in_sync' || body.code === 'fleet_in_sync' ? (body as PrecheckRefusal) : null;
}

export function useStartRollout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RolloutStart) => unwrap(api.POST('/api/v1/canary/rollouts', { body })),
    onSuccess: (rollout) => {
      queryClient.setQueryData(rolloutKeys.one(rollout.id), rollout);
      return queryClient.invalidateQueries({ queryKey: rolloutKeys.all });
    },
  });
}

/**
 * A gate decision, carrying the state token of the state the user decided on. The rollout the
 * API answers with becomes the page's state; everything else that lists rollouts reads again.
 */
export function useGateAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, stateToken }: { action: GateAction; stateToken: string }) => {
      const options = { params: { path: { id } }, body: { stateToken } };
      switch (action) {
        case 'proceed':
          return unwrap(api.POST('/api/v1/canary/rollouts/{id}/proceed', options));
        case 'abort':
          return unwrap(api.POST('/api/v1/canary/rollouts/{id}/abort', options));
        case 'refresh-evidence':
          return unwrap(api.POST('/api/v1/canary/rollouts/{id}/refresh-evidence', options));
      }
    },
    onSuccess: (rollout) => {
      queryClient.setQueryData(rolloutKeys.one(id), rollout);
      return Promise.all([queryClient.invalidateQueries({ queryKey: ['rollouts', 'page'] }), queryClient.invalidateQueries({ queryKey: ['fleet'] })]);
    },
  });
}

type Instance = Schemas['Instance'];

/** The enabled instances of one app family, every page of them (a rollout takes at most 501). */
export function useRolloutCandidates(arrType: Schemas['ArrType']) {
  return useQuery({
    queryKey: ['instances', 'rollout-candidates', arrType],
    queryFn: async () => {
      const instances: Instance[] = [];
      for (let page = 1; page <= 3; page++) {
        const data = await unwrap(api.GET('/api/v1/instances', { params: { query: { arrType, enabled: true, page, pageSize: 200 } } }));
        instances.push(...data.items);
        if (!data.hasNext) break;
      }
      return instances;
    },
  });
}
