import { Button, Card, Group, NumberInput, Stack, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useDriftSettings, useSaveDriftSettings, type DriftSettings } from '../../api/drift';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Facts } from '../../components/Facts';
import { QueryState } from '../../components/QueryState';
import { TimeAgo } from '../../components/TimeAgo';

function SettingsForm({ settings }: { settings: DriftSettings }) {
  const [enabled, setEnabled] = useState(settings.enabled);
  const [interval, setIntervalMinutes] = useState<number>(settings.intervalMinutes);
  const save = useSaveDriftSettings();
  const changed = enabled !== settings.enabled || interval !== settings.intervalMinutes;
  return (
    <Stack gap="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ enabled, intervalMinutes: interval }, { onSuccess: () => notifications.show({ color: 'green', message: 'Drift schedule saved' }) });
        }}
      >
        <Stack gap="sm">
          <Switch label="Check every enabled instance on a schedule" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <Group align="flex-end" gap="sm">
            <NumberInput
              label="Every (minutes)"
              description="1 to 10080 (a week)"
              min={1}
              max={10_080}
              allowDecimal={false}
              clampBehavior="strict"
              required
              value={interval}
              onChange={(value) => setIntervalMinutes(typeof value === 'number' ? value : 1)}
              w={200}
            />
            <Button type="submit" loading={save.isPending} disabled={!changed}>
              Save schedule
            </Button>
          </Group>
          {save.isError ? <ErrorDisplay title="Not saved" error={save.error} /> : null}
        </Stack>
      </form>
      <Facts
        items={[
          ['Last run', <TimeAgo iso={settings.lastRunAt} />],
          ['Next run', <TimeAgo iso={settings.nextRunAt} fallback={settings.enabled ? 'not scheduled yet' : 'paused'} />],
          ['Backing off until', <TimeAgo iso={settings.backoffUntil} fallback="no instance is backing off" />],
          ['Failing runs in a row', settings.errorCount],
        ]}
      />
    </Stack>
  );
}

/** The drift schedule: on or off, its interval, and the state of the polling job. */
export function DriftSettingsCard() {
  const settings = useDriftSettings();
  return (
    <Card withBorder>
      <QueryState query={settings} loadingLabel="Loading the drift schedule">
        {/* A new key after a save starts the form from what is now stored. */}
        {(data) => <SettingsForm key={`${data.enabled}:${data.intervalMinutes}`} settings={data} />}
      </QueryState>
    </Card>
  );
}
