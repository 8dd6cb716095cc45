import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type components, type operations } from './client';

export type TimelinePage = components['schemas']['TimelinePage'];
export type TimelineItem = components['schemas']['TimelineItem'];
export type TimelineSource = components['schemas']['TimelineSource'];
export type TimelineStatus = components['schemas']['TimelineStatus'];
export type TimelineAnnotation = components['schemas']['TimelineAnnotation'];
export type TimelineQuery = NonNullable<operations['getTimeline']['parameters']['query']>;

export const TIMELINE_PAGE_SIZE = 25;

/** Labels of the sources and statuses (typed by the API's enums: a new value does not compile until it has one). */
export const SOURCE_LABELS: Record<TimelineSource, string> = { sync: 'Sync', canary: 'Canary rollout', snapshot: 'Snapshot', rollback: 'Rollback' };
export const STATUS_LABELS: Record<TimelineStatus, string> = { success: 'Success', partial: 'Partial', failed: 'Failed', running: 'Running', pending: 'Pending', cancelled: 'Cancelled' };

const timelineKeys = { all: ['timeline'] as const, page: (query: TimelineQuery) => ['timeline', query] as const };

export function useTimeline(query: TimelineQuery) {
  return useQuery({
    queryKey: timelineKeys.page(query),
    queryFn: () => unwrap(api.GET('/api/v1/timeline', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

function useTimelineChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: timelineKeys.all });
}

export function useAddAnnotation() {
  const changed = useTimelineChanged();
  return useMutation({ mutationFn: (body: { eventId: string; body: string }) => unwrap(api.POST('/api/v1/timeline/annotations', { body })), onSuccess: changed });
}

export function useEditAnnotation() {
  const changed = useTimelineChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: string }) => unwrap(api.PATCH('/api/v1/timeline/annotations/{id}', { params: { path: { id } }, body: { body } })),
    onSuccess: changed,
  });
}

export function useDeleteAnnotation() {
  const changed = useTimelineChanged();
  return useMutation({ mutationFn: (id: number) => unwrap(api.DELETE('/api/v1/timeline/annotations/{id}', { params: { path: { id } } })), onSuccess: changed });
}
