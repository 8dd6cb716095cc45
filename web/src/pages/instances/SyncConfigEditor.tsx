import { Button, Card, Group, MultiSelect, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useDatabases, useProfileCompatibility, useResolvedNames } from '../../api/databases';
import { useRemoveSyncConfig, useSaveSyncConfig, useSyncConfig } from '../../api/instances';
import { APP_LABELS, type Instance, type SyncConfig, type SyncConfigInput } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Empty, QueryState } from '../../components/QueryState';
import { TimeAgo } from '../../components/TimeAgo';

type Values = Omit<SyncConfigInput, 'databaseId' | 'qualityProfiles' | 'deleteUnmanaged'> & {
  databaseId: number | null;
  qualityProfiles: string[];
  deleteUnmanaged: boolean;
};

function valuesOf(config: SyncConfig | null): Values {
  return {
    databaseId: config?.databaseId ?? null,
    qualityProfiles: config?.qualityProfiles ?? [],
    delayProfile: config?.delayProfile ?? null,
    naming: config?.naming ?? null,
    mediaSettings: config?.mediaSettings ?? null,
    qualityDefinitions: config?.qualityDefinitions ?? null,
    metadataProfile: config?.metadataProfile ?? null,
    namespace: config?.namespace ?? null,
    deleteUnmanaged: config?.deleteUnmanaged ?? false,
  };
}

/** A single pick from the database's resolved entities of one type (none: the section is not synced). */
function NamePicker({ label, names, value, onChange }: { label: string; names: { data?: string[]; isPending: boolean }; value: string | null | undefined; onChange: (value: string | null) => void }) {
  return (
    <Select
      label={label}
      placeholder={names.isPending ? 'Loading…' : 'Not synced'}
      data={names.data ?? []}
      value={value ?? null}
      onChange={onChange}
      clearable
      searchable
      nothingFoundMessage="Not in this database"
    />
  );
}

function SyncConfigForm({ instance, config }: { instance: Instance; config: SyncConfig | null }) {
  const databases = useDatabases();
  const [values, setValues] = useState(() => valuesOf(config));
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  const save = useSaveSyncConfig(instance.id);
  const remove = useRemoveSyncConfig(instance.id);
  const { arrType } = instance;
  const db = values.databaseId;
  const profiles = useResolvedNames(db, 'qualityProfile', null);
  const compatibility = useProfileCompatibility(db);
  const delayProfiles = useResolvedNames(db, 'delayProfile', null);
  const naming = useResolvedNames(db, 'naming', arrType);
  const mediaSettings = useResolvedNames(db, 'mediaSettings', arrType);
  const qualityDefinitions = useResolvedNames(db, 'qualityDefinitions', arrType);
  const metadataProfiles = useResolvedNames(db, 'musicAppMetadataProfile', null, arrType === 'music_app');
  // The API's compatibility per profile, when it gives one: profiles for other apps are left out.
  const profileOptions = (profiles.data ?? []).filter((name) => compatibility.data?.get(name)?.includes(arrType) ?? true);
  const namesError = [profiles, delayProfiles, naming, mediaSettings, qualityDefinitions].find((q) => q.isError)?.error;

  return (
    <QueryState
      query={databases}
      loadingLabel="Loading databases"
      isEmpty={(list) => list.length === 0}
      empty={<Empty title="No database linked" description="Link a PCD database (POST /api/v1/databases) to pick what this instance syncs." />}
    >
      {(list) => (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (values.databaseId === null) return;
            save.mutate(
              { ...values, databaseId: values.databaseId, namespace: values.namespace?.trim() ? values.namespace.trim() : null },
              { onSuccess: () => notifications.show({ color: 'green', message: `The sync configuration of ${instance.name} was saved` }) },
            );
          }}
        >
          <Stack>
            <Select
              label="Database"
              required
              allowDeselect={false}
              data={list.map((d) => ({ value: String(d.id), label: `${d.name} (${d.cache.status})` }))}
              value={values.databaseId === null ? null : String(values.databaseId)}
              onChange={(value) => set('databaseId', value === null ? null : Number(value))}
            />
            {namesError ? <ErrorDisplay title="The database's entities could not be read" error={namesError} /> : null}
            <MultiSelect
              label="Quality profiles"
              description={`The custom formats they score come along. Only profiles ${APP_LABELS[arrType]} can use are listed.`}
              placeholder={profiles.isPending && db !== null ? 'Loading…' : undefined}
              data={[...new Set([...profileOptions, ...values.qualityProfiles])]}
              value={values.qualityProfiles}
              onChange={(picked) => set('qualityProfiles', picked)}
              searchable
              clearable
              nothingFoundMessage="No such profile"
            />
            <NamePicker label="Delay profile" names={delayProfiles} value={values.delayProfile} onChange={(v) => set('delayProfile', v)} />
            <NamePicker label="Naming" names={naming} value={values.naming} onChange={(v) => set('naming', v)} />
            <NamePicker label="Media settings" names={mediaSettings} value={values.mediaSettings} onChange={(v) => set('mediaSettings', v)} />
            <NamePicker label="Quality definitions" names={qualityDefinitions} value={values.qualityDefinitions} onChange={(v) => set('qualityDefinitions', v)} />
            {arrType === 'music_app' ? <NamePicker label="Metadata profile" names={metadataProfiles} value={values.metadataProfile} onChange={(v) => set('metadataProfile', v)} /> : null}
            <TextInput
              label="Namespace"
              description='Written after every name arrgo writes ("Name [namespace]"), so synced entities never collide with your own. Empty: names as in the database.'
              value={values.namespace ?? ''}
              onChange={(e) => set('namespace', e.currentTarget.value)}
            />
            <Switch
              label="Delete unmanaged custom formats and quality profiles"
              description="Off: what arrgo does not manage is reported as unmanaged and left alone."
              checked={values.deleteUnmanaged}
              onChange={(e) => set('deleteUnmanaged', e.currentTarget.checked)}
            />
            {save.isError ? <ErrorDisplay title="Not saved" error={save.error} /> : null}
            {remove.isError ? <ErrorDisplay title="Not removed" error={remove.error} /> : null}
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {config ? (
                  <>
                    Saved <TimeAgo iso={config.updatedAt} />
                  </>
                ) : (
                  'Not synced yet'
                )}
              </Text>
              <Group gap="xs">
                {config ? (
                  <ConfirmButton
                    variant="outline"
                    color="red"
                    title={`Stop syncing ${instance.name}?`}
                    message="arrgo removes this instance's sync configuration. Nothing in the app is touched."
                    loading={remove.isPending}
                    onConfirm={() => remove.mutateAsync().then(() => setValues(valuesOf(null)), () => undefined)}
                  >
                    Stop syncing
                  </ConfirmButton>
                ) : null}
                <Button type="submit" loading={save.isPending} disabled={values.databaseId === null}>
                  Save sync configuration
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
    </QueryState>
  );
}

/** What the instance syncs: the database and the entities picked from its resolved lists. */
export function SyncConfigEditor({ instance }: { instance: Instance }) {
  const config = useSyncConfig(instance.id);
  return (
    <Card withBorder>
      <QueryState query={config} loadingLabel="Loading the sync configuration">
        {(data) => <SyncConfigForm key={data?.updatedAt ?? 'none'} instance={instance} config={data} />}
      </QueryState>
    </Card>
  );
}
