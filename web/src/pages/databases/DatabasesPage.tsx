import { Anchor, Button, Group, Loader, Modal, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { isPulling, useDatabases, useLinkDatabase } from '../../api/databases';
import type { Database, DatabaseCreate } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { TimeAgo } from '../../components/TimeAgo';
import { sourceText } from './source';

type SourceKind = DatabaseCreate['source']['kind'];

function LinkForm({ busy, error, onSubmit, onCancel }: { busy: boolean; error: unknown; onSubmit: (body: DatabaseCreate) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<SourceKind>('git');
  const [url, setUrl] = useState('');
  const [branch, setBranch] = useState('');
  const [token, setToken] = useState('');
  const [path, setPath] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const source: DatabaseCreate['source'] = kind === 'git' ? { kind, url: url.trim(), ...(branch.trim() ? { branch: branch.trim() } : {}), ...(token.trim() ? { token: token.trim() } : {}) } : { kind, path: path.trim() };
        onSubmit({ name: name.trim(), source });
      }}
    >
      <Stack>
        <TextInput label="Name" description="How arrgo and the sync configurations name it" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="database-source-label">
            Source
          </Text>
          <SegmentedControl
            aria-labelledby="database-source-label"
            value={kind}
            onChange={(value) => setKind(value as SourceKind)}
            data={[
              { value: 'git', label: 'Git repository' },
              { value: 'local', label: 'Local directory' },
            ]}
          />
        </Stack>
        {kind === 'git' ? (
          <>
            <TextInput label="Repository URL" placeholder="https://github.com/Dictionarry-Hub/trash-pcd" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
            <TextInput label="Branch" description="Empty: main" value={branch} onChange={(e) => setBranch(e.currentTarget.value)} />
            <PasswordInput
              label="Access token"
              description="A private repository over https:// only; stored encrypted, never shown again"
              maxLength={1000}
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
            />
          </>
        ) : (
          <TextInput
            label="Directory"
            description="A directory holding pcd.json, as the arrgo server sees it (an absolute path, or one relative to where arrgo runs)"
            placeholder="/data/pcd/my-database"
            required
            value={path}
            onChange={(e) => setPath(e.currentTarget.value)}
          />
        )}
        {error ? <ErrorDisplay title="Not linked" error={error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Link and pull
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LinkDatabase() {
  const [opened, { open, close }] = useDisclosure(false);
  const link = useLinkDatabase();
  const navigate = useNavigate();
  const dismiss = () => {
    link.reset();
    close();
  };
  return (
    <>
      <Button onClick={open}>Link a database</Button>
      <Modal opened={opened} onClose={dismiss} title="Link a PCD database">
        <Stack>
          <Text size="sm" c="dimmed">
            arrgo pulls it at once: it fetches the source, imports its ops and replays them. The database page shows the pull as it runs.
          </Text>
          <LinkForm busy={link.isPending} error={link.isError ? link.error : null} onCancel={dismiss} onSubmit={(body) => link.mutate(body, { onSuccess: (database) => navigate(`/databases/${database.id}`) })} />
        </Stack>
      </Modal>
    </>
  );
}

function DatabaseTable({ databases }: { databases: Database[] }) {
  return (
    <DataTable
      minWidth={760}
      rows={databases}
      rowKey={(database) => database.id}
      columns={[
        {
          label: 'Name',
          cell: (database) => (
            <>
              <Anchor component={Link} to={`/databases/${database.id}`}>
                {database.name}
              </Anchor>
              {database.enabled ? null : (
                <Text span size="xs" c="dimmed" ml={6}>
                  (disabled)
                </Text>
              )}
            </>
          ),
        },
        {
          label: 'Source',
          cell: (database) => (
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {sourceText(database.source)}
            </Text>
          ),
        },
        { label: 'Version', cell: ({ manifest }) => (manifest ? `${manifest.name} ${manifest.version}` : '–') },
        {
          label: 'Cache',
          cell: (database) => (
            <Group gap={6} wrap="nowrap">
              <StatusBadge status={database.cache.status} />
              {isPulling(database) ? <Loader size="xs" role="status" aria-label={`Pulling ${database.name}`} /> : null}
            </Group>
          ),
        },
        { label: 'Failed ops', cell: ({ cache }) => (cache.stats ? (cache.stats.failedOps ?? cache.stats.failed) : '–') },
        { label: 'Last pulled', cell: (database) => <TimeAgo iso={database.lastPulledAt} /> },
      ]}
    />
  );
}

export function DatabasesPage() {
  const databases = useDatabases();
  return (
    <>
      <PageHeader title="Databases" description="The PCD databases that hold the configuration arrgo syncs to your instances." actions={<LinkDatabase />} />
      <QueryState
        query={databases}
        loadingLabel="Loading databases"
        isEmpty={(list) => list.length === 0}
        empty={<Empty title="No database linked" description="Link a PCD database from a git repository (such as trash-pcd) or a local directory." />}
      >
        {(list) => <DatabaseTable databases={list} />}
      </QueryState>
    </>
  );
}
