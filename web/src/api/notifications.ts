import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type components, type operations } from './client';

type Schemas = components['schemas'];
export type NotificationChannel = Schemas['NotificationChannel'];
export type ChannelCreate = Schemas['NotificationChannelCreate'];
export type ChannelPatch = Schemas['NotificationChannelPatch'];
export type ChannelKind = ChannelCreate['kind'];
export type NotificationEventType = Schemas['NotificationEventType'];
export type NotificationDelivery = Schemas['NotificationDelivery'];
export type DeliveryStatus = Schemas['NotificationDeliveryStatus'];
export type DeliveryQuery = NonNullable<operations['listNotificationDeliveries']['parameters']['query']>;

/** What each event is, in words (typed by the API's enum: a new event does not compile until it has one). */
export const EVENT_LABELS: Record<NotificationEventType, string> = {
  'drift.detected': 'Drift detected',
  'drift.resolved': 'Drift resolved',
  'rollout.awaiting_gate': 'Rollout waiting at the gate',
  'rollout.completed': 'Rollout completed',
  'rollout.failed': 'Rollout failed',
  'rollout.aborted': 'Rollout aborted',
  'sync.failed': 'Sync failed',
  'health.dropped': 'Health dropped',
  'pcd.pull_failed': 'Database pull failed',
  'ref_guide.sync_failed': 'Reference guide sync failed',
};
export const CHANNEL_KIND_LABELS: Record<ChannelKind, string> = { webhook: 'Webhook (signed JSON)', discord: 'Discord' };
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = { pending: 'Pending', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed', skipped: 'Skipped' };

/** Channels are few: the first page at the API's largest size holds them. */
const CHANNELS_PAGE_SIZE = 200;
export const DELIVERIES_PAGE_SIZE = 25;
/** How long a test waits for the first attempt before answering (the API's bound applies). */
const TEST_WAIT_SECONDS = 15;

const notificationKeys = {
  channels: ['notifications', 'channels'] as const,
  deliveries: ['notifications', 'deliveries'] as const,
  deliveryPage: (query: DeliveryQuery) => ['notifications', 'deliveries', query] as const,
};

export function useChannels() {
  return useQuery({
    queryKey: notificationKeys.channels,
    queryFn: () => unwrap(api.GET('/api/v1/notifications/channels', { params: { query: { pageSize: CHANNELS_PAGE_SIZE } } })),
  });
}

/** The delivery log; refreshed every 5 s while a delivery is still pending or retrying. */
export function useDeliveries(query: DeliveryQuery) {
  return useQuery({
    queryKey: notificationKeys.deliveryPage(query),
    queryFn: () => unwrap(api.GET('/api/v1/notifications/deliveries', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === 'pending' || d.status === 'retrying') ? 5_000 : false),
  });
}

function useNotificationsChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['notifications'] });
}

export function useCreateChannel() {
  const changed = useNotificationsChanged();
  return useMutation({ mutationFn: (body: ChannelCreate) => unwrap(api.POST('/api/v1/notifications/channels', { body })), onSuccess: changed });
}

export function useUpdateChannel(id: number) {
  const changed = useNotificationsChanged();
  return useMutation({ mutationFn: (body: ChannelPatch) => unwrap(api.PATCH('/api/v1/notifications/channels/{id}', { params: { path: { id } }, body })), onSuccess: changed });
}

export function useDeleteChannel() {
  const changed = useNotificationsChanged();
  return useMutation({ mutationFn: (id: number) => unwrap(api.DELETE('/api/v1/notifications/channels/{id}', { params: { path: { id } } })), onSuccess: changed });
}

/** Sends a test event and answers with the delivery after its first attempt. */
export function useTestChannel(id: number) {
  const changed = useNotificationsChanged();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/notifications/channels/{id}/test', { params: { path: { id }, query: { wait: true, waitSeconds: TEST_WAIT_SECONDS } } })),
    onSuccess: changed,
  });
}
