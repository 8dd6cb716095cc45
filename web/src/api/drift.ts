import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';

type Schemas = components['schemas'];
export type DriftDetail = Schemas['DriftDetail'];
export type DriftStatus = DriftDetail['status'];
export type DriftReason = NonNullable<DriftDetail['reason']>;
export type DriftSettings = Schemas['DriftSettings'];
export type DriftSettingsInput = Schemas['DriftSettingsInput'];

export const driftKeys = {
  list: ['drift', 'list'] as const,
  settings: ['drift', 'settings'] as const,
};

/** Every instance's stored drift result; read again every 30 s (the schedule may have checked meanwhile). */
export function useDriftList() {
  return useQuery({ queryKey: driftKeys.list, queryFn: () => unwrap(api.GET('/api/v1/drift')), refetchInterval: 30_000 });
}

/** Checks one instance now; the stored result it answers with replaces the instance's entry. */
export function useCheckDrift() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (instanceId: number) => unwrap(api.POST('/api/v1/drift/{instanceId}/check', { params: { path: { instanceId } } })),
    onSuccess: (result) => {
      queryClient.setQueryData<DriftDetail[]>(driftKeys.list, (list) => list?.map((entry) => (entry.instanceId === result.instanceId ? result : entry)));
      return queryClient.invalidateQueries({ queryKey: ['fleet'] });
    },
  });
}

export function useDriftSettings() {
  return useQuery({ queryKey: driftKeys.settings, queryFn: () => unwrap(api.GET('/api/v1/drift/settings')) });
}

export function useSaveDriftSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DriftSettingsInput) => unwrap(api.PUT('/api/v1/drift/settings', { body })),
    onSuccess: (settings) => queryClient.setQueryData(driftKeys.settings, settings),
  });
}
