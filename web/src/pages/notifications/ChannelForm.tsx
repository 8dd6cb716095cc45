import { Button, Checkbox, Group, PasswordInput, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { CHANNEL_KIND_LABELS, EVENT_LABELS, type ChannelCreate, type ChannelKind, type ChannelPatch, type NotificationChannel, type NotificationEventType } from '../../api/notifications';

interface ChannelValues {
  name: string;
  kind: ChannelKind;
  url: string;
  secret: string;
  events: NotificationEventType[];
  enabled: boolean;
}

const ALL_EVENTS = Object.keys(EVENT_LABELS) as NotificationEventType[];

function initialValues(channel?: NotificationChannel): ChannelValues {
  return { name: channel?.name ?? '', kind: channel?.kind ?? 'webhook', url: '', secret: '', events: channel?.events ?? ALL_EVENTS, enabled: channel?.enabled ?? true };
}

/** A new channel: every field the API takes (the secret only for webhooks). */
function createBody(values: ChannelValues): ChannelCreate {
  return { name: values.name, kind: values.kind, url: values.url, events: values.events, enabled: values.enabled, ...(values.kind === 'webhook' && values.secret ? { secret: values.secret } : {}) };
}

/** An edit: the changed fields; an empty URL or secret keeps the stored one (never shown back). */
function patchBody(channel: NotificationChannel, values: ChannelValues): ChannelPatch {
  const patch: ChannelPatch = {};
  if (values.name !== channel.name) patch.name = values.name;
  if (values.url) patch.url = values.url;
  if (values.kind === 'webhook' && values.secret) patch.secret = values.secret;
  if ([...values.events].sort().join() !== [...channel.events].sort().join()) patch.events = values.events;
  return patch;
}

interface ChannelFormProps {
  /** The channel being edited; a new one without. */
  channel?: NotificationChannel;
  busy: boolean;
  /** The API's refusal, shown above the buttons. */
  error?: ReactNode;
  onCreate?: (body: ChannelCreate) => void;
  onUpdate?: (patch: ChannelPatch) => void;
  onCancel: () => void;
}

/** A channel's fields. The URL and the secret are write-only: the API never returns them, so an edit leaves them empty. */
export function ChannelForm({ channel, busy, error, onCreate, onUpdate, onCancel }: ChannelFormProps) {
  const [values, setValues] = useState(() => initialValues(channel));
  const set = <K extends keyof ChannelValues>(key: K, value: ChannelValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (channel) onUpdate?.(patchBody(channel, values));
        else onCreate?.(createBody(values));
      }}
    >
      <Stack>
        <TextInput label="Name" required value={values.name} onChange={(e) => set('name', e.currentTarget.value)} />
        {channel ? (
          <Text size="sm">Kind: {CHANNEL_KIND_LABELS[channel.kind]}</Text>
        ) : (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="channel-kind">
              Kind
            </Text>
            <SegmentedControl
              aria-labelledby="channel-kind"
              value={values.kind}
              onChange={(kind) => set('kind', kind as ChannelKind)}
              data={(Object.keys(CHANNEL_KIND_LABELS) as ChannelKind[]).map((value) => ({ value, label: CHANNEL_KIND_LABELS[value] }))}
            />
          </Stack>
        )}
        <TextInput
          label="URL"
          type="url"
          autoComplete="off"
          required={!channel}
          placeholder={values.kind === 'discord' ? 'https://discord.com/api/webhooks/…' : 'https://hooks.example.org/arrgo'}
          description={channel ? (channel.urlSet ? 'A URL is stored (never shown). Leave empty to keep it.' : 'No URL is stored.') : 'Stored encrypted and never shown again.'}
          value={values.url}
          onChange={(e) => set('url', e.currentTarget.value)}
        />
        {values.kind === 'webhook' ? (
          <PasswordInput
            label="Signing secret"
            autoComplete="new-password"
            description={
              channel?.secretSet
                ? 'A secret is stored (never shown). Leave empty to keep it.'
                : 'Optional, at least 16 characters: requests then carry X-Arrgo-Signature, an HMAC-SHA256 under this secret. Never shown again.'
            }
            value={values.secret}
            onChange={(e) => set('secret', e.currentTarget.value)}
          />
        ) : null}
        <Checkbox.Group label="Events" description="What this channel receives" value={values.events} onChange={(events) => set('events', events as NotificationEventType[])}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} mt={6}>
            {ALL_EVENTS.map((event) => (
              <Checkbox key={event} value={event} label={EVENT_LABELS[event]} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        {channel ? null : <Switch label="Enabled" checked={values.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />}
        {error}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {channel ? 'Save channel' : 'Add channel'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
