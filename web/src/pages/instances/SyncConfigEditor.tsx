import { Button, Card, Group, MultiSelect, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useDatabases, useProfileCompatibility, useResolvedNames } from '../../api/databases';
import { useRemoveSyncConfig, useSaveSyncConfig, useSyncConfig } from '../../api/instances';
import { APP_LABELS, type Database, type Instance, type SyncConfig, type SyncConfigInput, type SyncSelection } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Empty, QueryState } from '../../components/QueryState';
import { TimeAgo } from '../../components/TimeAgo';

/** What one database of the configuration syncs (namespace and deleteUnmanaged are the instance's, kept on the first). */
type EntrySelection = Pick<SyncSelection, 'qualityProfiles' | 'delayProfile' | 'naming' | 'mediaSettings' | 'qualityDefinitions' | 'metadataProfile'>;
interface Entry extends EntrySelection {
  /** Stable across reordering (React key). */
  key: number;
  databaseId: number | null;
}
interface Values {
  entries: Entry[];
  namespace: string | null;
  deleteUnmanaged: boolean;
}

let nextKey = 1;
function entryOf(databaseId: number | null, selection?: Partial<EntrySelection>): Entry {
  return {
    key: nextKey++,
    databaseId,
    qualityProfiles: selection?.qualityProfiles ?? [],
    delayProfile: selection?.delayProfile ?? null,
    naming: selection?.naming ?? null,
    mediaSettings: selection?.mediaSettings ?? null,
    qualityDefinitions: selection?.qualityDefinitions ?? null,
    metadataProfile: selection?.metadataProfile ?? null,
  };
}

function valuesOf(config: SyncConfig | null): Values {
  const entries = config ? (config.databases.length ? config.databases.map((d) => entryOf(d.databaseId, d.selection)) : [entryOf(config.databaseId, config)]) : [entryOf(null)];
  return { entries, namespace: config?.namespace ?? null, deleteUnmanaged: config?.deleteUnmanaged ?? false };
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

/** One database of the list: which one, what it syncs, and its place in the order. */
function DatabaseEntry({
  instance,
  entry,
  position,
  count,
  databases,
  taken,
  onChange,
  onMove,
  onRemove,
}: {
  instance: Instance;
  entry: Entry;
  position: number;
  count: number;
  databases: Database[];
  taken: Set<number>;
  onChange: (entry: Entry) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { arrType } = instance;
  const db = entry.databaseId;
  const set = <K extends keyof Entry>(key: K, value: Entry[K]) => onChange({ ...entry, [key]: value });
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
  const name = databases.find((d) => d.id === db)?.name ?? 'no database';
  const title = `Database ${position + 1}${count > 1 && position === 0 ? ' (highest priority)' : ''}`;

  return (
    <Card withBorder component="section" aria-label={title}>
      <Stack>
        <Group justify="space-between">
          <Text fw={600}>{title}</Text>
          {count > 1 ? (
            <Group gap="xs">
              <Button size="xs" variant="default" disabled={position === 0} onClick={() => onMove(-1)} aria-label={`Move ${name} up`}>
                Move up
              </Button>
              <Button size="xs" variant="default" disabled={position === count - 1} onClick={() => onMove(1)} aria-label={`Move ${name} down`}>
                Move down
              </Button>
              <Button size="xs" variant="outline" color="red" onClick={onRemove} aria-label={`Remove ${name}`}>
                Remove
              </Button>
            </Group>
          ) : null}
        </Group>
        <Select
          label="Database"
          required
          allowDeselect={false}
          data={databases.map((d) => ({ value: String(d.id), label: `${d.name} (${d.cache.status})`, disabled: d.id !== db && taken.has(d.id) }))}
          value={db === null ? null : String(db)}
          onChange={(value) => set('databaseId', value === null ? null : Number(value))}
        />
        {namesError ? <ErrorDisplay title="The database's entities could not be read" error={namesError} /> : null}
        <MultiSelect
          label="Quality profiles"
          description={`The custom formats they score come along. Only profiles ${APP_LABELS[arrType]} can use are listed.`}
          placeholder={profiles.isPending && db !== null ? 'Loading…' : undefined}
          data={[...new Set([...profileOptions, ...entry.qualityProfiles])]}
          value={entry.qualityProfiles}
          onChange={(picked) => set('qualityProfiles', picked)}
          searchable
          clearable
          nothingFoundMessage="No such profile"
        />
        <NamePicker label="Delay profile" names={delayProfiles} value={entry.delayProfile} onChange={(v) => set('delayProfile', v)} />
        <NamePicker label="Naming" names={naming} value={entry.naming} onChange={(v) => set('naming', v)} />
        <NamePicker label="Media settings" names={mediaSettings} value={entry.mediaSettings} onChange={(v) => set('mediaSettings', v)} />
        <NamePicker label="Quality definitions" names={qualityDefinitions} value={entry.qualityDefinitions} onChange={(v) => set('qualityDefinitions', v)} />
        {arrType === 'music_app' ? <NamePicker label="Metadata profile" names={metadataProfiles} value={entry.metadataProfile} onChange={(v) => set('metadataProfile', v)} /> : null}
      </Stack>
    </Card>
  );
}

function SyncConfigForm({ instance, config }: { instance: Instance; config: SyncConfig | null }) {
  const databases = useDatabases();
  const [values, setValues] = useState(() => valuesOf(config));
  const save = useSaveSyncConfig(instance.id);
  const remove = useRemoveSyncConfig(instance.id);
  const { entries } = values;
  const setEntries = (next: Entry[]) => setValues((v) => ({ ...v, entries: next }));
  const move = (at: number, by: -1 | 1) => {
    const next = [...entries];
    [next[at], next[at + by]] = [next[at + by], next[at]];
    setEntries(next);
  };
  const complete = entries.every((e) => e.databaseId !== null);

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
            if (!complete) return;
            const namespace = values.namespace?.trim() ? values.namespace.trim() : null;
            const body: SyncConfigInput = {
              databases: entries.map(({ key: _key, databaseId, ...selection }, i) => ({
                databaseId: databaseId!,
                selection: i === 0 ? { ...selection, namespace, deleteUnmanaged: values.deleteUnmanaged } : selection,
              })),
            };
            save.mutate(body, { onSuccess: () => notifications.show({ color: 'green', message: `The sync configuration of ${instance.name} was saved` }) });
          }}
        >
          <Stack>
            {entries.length > 1 ? (
              <Text size="sm" c="dimmed">
                The first database wins: an entity two databases supply (same type and name) comes from the earlier one, and the preview lists every collision.
              </Text>
            ) : null}
            {entries.map((entry, i) => (
              <DatabaseEntry
                key={entry.key}
                instance={instance}
                entry={entry}
                position={i}
                count={entries.length}
                databases={list}
                taken={new Set(entries.map((e) => e.databaseId).filter((id): id is number => id !== null))}
                onChange={(changed) => setEntries(entries.map((e) => (e.key === entry.key ? changed : e)))}
                onMove={(by) => move(i, by)}
                onRemove={() => setEntries(entries.filter((e) => e.key !== entry.key))}
              />
            ))}
            <Group>
              <Button variant="default" disabled={entries.length >= list.length} onClick={() => setEntries([...entries, entryOf(null)])}>
                Add a database
              </Button>
            </Group>
            <TextInput
              label="Namespace"
              description='Written after every name arrgo writes ("Name [namespace]"), so synced entities never collide with your own. Empty: names as in the database.'
              value={values.namespace ?? ''}
              onChange={(e) => {
                const namespace = e.currentTarget.value;
                setValues((v) => ({ ...v, namespace }));
              }}
            />
            <Switch
              label="Delete unmanaged custom formats and quality profiles"
              description="Off: what arrgo does not manage is reported as unmanaged and left alone."
              checked={values.deleteUnmanaged}
              onChange={(e) => {
                const deleteUnmanaged = e.currentTarget.checked;
                setValues((v) => ({ ...v, deleteUnmanaged }));
              }}
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
                <Button type="submit" loading={save.isPending} disabled={!complete}>
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

/** What the instance syncs: its databases in priority order, each with the entities picked from its resolved lists. */
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
