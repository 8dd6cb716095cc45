import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, urlBase, type components } from './client';

export type HealthResult = components['schemas']['HealthResult'];
export type HealthTrend = components['schemas']['HealthTrend'];
export type HealthCriterion = HealthResult['overall']['criteria'][number];
export type HealthSuggestion = HealthResult['overall']['suggestions'][number];

/** The trend's window: the last N days, or every stored snapshot (null). */
export type TrendWindow = number | null;

export const healthKeys = {
  all: (instanceId: number) => ['config-health', instanceId] as const,
  latest: (instanceId: number) => ['config-health', instanceId, 'latest'] as const,
  trend: (instanceId: number, days: TrendWindow) => ['config-health', instanceId, 'trend', days] as const,
};

const windowQuery = (days: TrendWindow): Record<string, string> => (days === null ? {} : { days: String(days) });

/** The newest persisted result (404 before the first snapshot: the API's text says so). */
export function useHealthResult(instanceId: number) {
  return useQuery({
    queryKey: healthKeys.latest(instanceId),
    queryFn: () => unwrap(api.GET('/api/v1/config-health/{instanceId}', { params: { path: { instanceId } } })),
  });
}

export function useHealthTrend(instanceId: number, days: TrendWindow) {
  return useQuery({
    queryKey: healthKeys.trend(instanceId, days),
    queryFn: () => unwrap(api.GET('/api/v1/config-health/{instanceId}/trends', { params: { path: { instanceId }, query: windowQuery(days) } })),
    placeholderData: keepPreviousData,
  });
}

/**
 * The CSV export of the same window, as a plain link: the browser downloads it with the session
 * cookie (a GET needs no CSRF token) and names it from the API's Content-Disposition.
 */
export function trendExportUrl(instanceId: number, days: TrendWindow): string {
  const query = new URLSearchParams({ format: 'csv', ...windowQuery(days) });
  return `${urlBase()}/api/v1/config-health/${instanceId}/trends/export?${query}`;
}

/** Recompute now (409 while one runs, 429 right after one: the API's text says which). */
export function useRecomputeHealth(instanceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/config-health/{instanceId}/recompute', { params: { path: { instanceId } } })),
    onSuccess: async (result) => {
      queryClient.setQueryData(healthKeys.latest(instanceId), result);
      await Promise.all([queryClient.invalidateQueries({ queryKey: healthKeys.all(instanceId) }), queryClient.invalidateQueries({ queryKey: ['fleet'] })]);
    },
  });
}
