import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type components } from './client';

type Schemas = components['schemas'];
export type ServiceHealth = Schemas['Health'];
export type DriftSettings = Schemas['DriftSettings'];
export type DriftSettingsInput = Schemas['DriftSettingsInput'];
export type SyncHistorySettings = Schemas['SyncHistorySettings'];
export type SyncHistorySettingsPatch = Schemas['SyncHistorySettingsPatch'];
export type SnapshotSettings = Schemas['SnapshotSettings'];
export type SnapshotSettingsPatch = Schemas['SnapshotSettingsPatch'];
export type RefGuideSettings = Schemas['RefGuideSettings'];
export type RefGuideSettingsInput = Schemas['RefGuideSettingsInput'];

const settingsKeys = {
  health: ['system', 'health'] as const,
  drift: ['settings', 'drift'] as const,
  history: ['settings', 'sync-history'] as const,
  snapshots: ['settings', 'snapshots'] as const,
  refGuide: ['settings', 'ref-guide'] as const,
};

/** The service's own health with its verbose detail (a session or the API key may read it); every 30 s. */
export function useServiceHealth() {
  return useQuery({ queryKey: settingsKeys.health, queryFn: () => unwrap(api.GET('/api/v1/health', { params: { query: { verbose: true } } })), refetchInterval: 30_000 });
}

/** A settings resource: its read, and a write that answers with the settings now in force. */
function useSettings<T, B>(key: readonly string[], read: () => Promise<T>, write: (body: B) => Promise<T>) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: key, queryFn: read });
  const save = useMutation({ mutationFn: write, onSuccess: (settings) => queryClient.setQueryData(key, settings) });
  return { query, save };
}

export const useDriftSettings = () =>
  useSettings(
    settingsKeys.drift,
    () => unwrap(api.GET('/api/v1/drift/settings')),
    (body: DriftSettingsInput) => unwrap(api.PUT('/api/v1/drift/settings', { body })),
  );

export const useSyncHistorySettings = () =>
  useSettings(
    settingsKeys.history,
    () => unwrap(api.GET('/api/v1/sync-history/settings')),
    (body: SyncHistorySettingsPatch) => unwrap(api.PATCH('/api/v1/sync-history/settings', { body })),
  );

export const useSnapshotSettings = () =>
  useSettings(
    settingsKeys.snapshots,
    () => unwrap(api.GET('/api/v1/snapshots/settings')),
    (body: SnapshotSettingsPatch) => unwrap(api.PATCH('/api/v1/snapshots/settings', { body })),
  );

export const useRefGuideSettings = () =>
  useSettings(
    settingsKeys.refGuide,
    () => unwrap(api.GET('/api/v1/ref-guide/settings')),
    (body: RefGuideSettingsInput) => unwrap(api.PUT('/api/v1/ref-guide/settings', { body })),
  );

/**
 * The API key, read only when the user asks to see it and kept in the page's memory only (not in
 * the query cache, never in storage).
 */
export function useRevealApiKey() {
  return useMutation({ mutationFn: () => unwrap(api.GET('/api/v1/auth/api-key')), gcTime: 0 });
}

/** A new API key, in force at once: the old one is refused from then on (409 when ARRGO_API_KEY sets it). */
export function useRegenerateApiKey() {
  return useMutation({ mutationFn: () => unwrap(api.POST('/api/v1/auth/api-key/regenerate')), gcTime: 0 });
}
