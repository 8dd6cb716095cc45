import { Alert, Anchor, Card, Center, Code, Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useSearchParamPicks } from '../../app/search-params';
import { useDatabase } from '../../api/databases';
import { useEntity, useResolveConflict, type EntityDetail, type PcdLayer, type PortableType } from '../../api/pcd';
import { DataTable } from '../../components/DataTable';
import { Disclosure } from '../../components/Disclosure';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { QueryState } from '../../components/QueryState';
import { EDITORS } from './editors/registry';
import { ExportButton } from './entity/ExportButton';
import { EntityConflict, FieldsTable, type ConflictActions } from './entity/FieldsTable';
import { UserOpsList } from './entity/UserOpsList';
import { FieldValue } from './entity/values';
import { compareUrl, listUrl } from './urls';

const LAYERS: { value: PcdLayer; label: string }[] = [
  { value: 'resolved', label: 'Resolved' },
  { value: 'base', label: 'Base' },
  { value: 'user', label: 'User' },
];

const LAYER_TEXT: Record<PcdLayer, string> = {
  resolved: 'What a sync writes: every layer replayed, each field with the layer and op that set it.',
  base: 'The repository as pulled (schema, base ops and tweaks), without your edits.',
  user: 'Your edits, as the fields they change from the base.',
};

/** The user layer: the fields your edits change from the base. */
function Overrides({ detail }: { detail: EntityDetail }) {
  const overrides = detail.overrides ?? [];
  if (!overrides.length) return <Text size="sm">No override: the entity is as the base gives it.</Text>;
  return (
    <DataTable
      label="Overrides"
      minWidth={560}
      rows={overrides}
      rowKey={(o) => o.field}
      columns={[
        { label: 'Field', cell: (o) => <Text size="sm">{o.field}</Text> },
        { label: 'Change', cell: (o) => o.type },
        { label: 'Base', cell: (o) => <FieldValue value={o.current} /> },
        { label: 'Yours', cell: (o) => <FieldValue value={o.desired} /> },
      ]}
    />
  );
}

function LayerView({ databaseId, portableType, name, layer, actions }: { databaseId: number; portableType: PortableType; name: string; layer: PcdLayer; actions: ConflictActions }) {
  const detail = useEntity(databaseId, portableType, name, layer, layer === 'resolved');
  return (
    <QueryState query={detail} loadingLabel={`Loading the ${layer} layer`}>
      {(d) =>
        !d.exists ? (
          <Text size="sm">{name} does not exist in the {layer} layer.</Text>
        ) : layer === 'user' ? (
          <Overrides detail={d} />
        ) : (
          <FieldsTable detail={d} actions={actions} />
        )
      }
    </QueryState>
  );
}

/** The editor of the entity's type, on the resolved payload. */
function EditorHost({ detail }: { detail: EntityDetail }) {
  const Editor = EDITORS[detail.portableType];
  if (!detail.exists || !detail.entity) return <Text size="sm">Only an entity of the resolved state can be edited.</Text>;
  return (
    <Suspense
      fallback={
        <Center py="md">
          <Loader aria-label="Loading the editor" role="status" />
        </Center>
      }
    >
      <Editor databaseId={detail.databaseId} portableType={detail.portableType} name={detail.name} entity={detail.entity} arrType={detail.arrType} />
    </Suspense>
  );
}

/**
 * One PCD entity: its layers (resolved with lineage per field, base, user overrides), pending
 * conflicts next to the fields they concern (keep mine or take upstream), its editor, its user ops
 * (each revertible) and its portable JSON.
 */
export function EntityPage() {
  const params = useParams();
  const databaseId = Number(params.databaseId);
  const portableType = params.portableType as PortableType;
  const name = params.name ?? '';
  const [search, setPicks] = useSearchParamPicks();
  const layer = (LAYERS.some((l) => l.value === search.get('layer')) ? search.get('layer') : 'resolved') as PcdLayer;
  const resolved = useEntity(databaseId, portableType, name, 'resolved', true);
  const database = useDatabase(databaseId);
  const resolve = useResolveConflict(databaseId, portableType, name);
  const [resolvedMessage, setResolvedMessage] = useState<string | null>(null);
  const actions: ConflictActions = {
    pending: resolve.isPending,
    resolve: (conflict, choice) =>
      resolve.mutate(
        { conflict, choice },
        { onSuccess: () => setResolvedMessage(choice === 'mine' ? `Kept your value (op ${conflict.opId} replaced by a new edit).` : `Took upstream (op ${conflict.opId} reverted).`) },
      ),
  };
  // The resolved layer is the page's default: it leaves no parameter.
  const setLayer = (value: string) => setPicks({ layer: value === 'resolved' ? null : value }, { replace: true });

  return (
    <Stack>
      <PageHeader
        title={name}
        description={
          <>
            <Code>{portableType}</Code> in database {database.data?.name ?? databaseId}
          </>
        }
        actions={
          <>
            <Anchor component={Link} to={listUrl(databaseId, resolved.data)} size="sm">
              Back to the list
            </Anchor>
            {resolved.data ? (
              <Anchor component={Link} to={compareUrl(databaseId, resolved.data)} size="sm">
                Compare with instances
              </Anchor>
            ) : null}
            <ExportButton databaseId={databaseId} portableType={portableType} name={name} />
          </>
        }
      />
      <QueryState query={resolved} loadingLabel={`Loading ${name}`}>
        {(detail) => (
          <Stack>
            {detail.pendingConflicts.length ? (
              <Alert color="orange" title={`${detail.pendingConflicts.length === 1 ? 'A pending conflict' : `${detail.pendingConflicts.length} pending conflicts`}`}>
                <Stack gap="xs">
                  <Text size="sm">
                    The base changed under your edit of {detail.pendingConflicts.flatMap((c) => c.fields.map((f) => f.field)).join(', ') || name}. Until you keep yours or take upstream,
                    the edit does not apply and a sync writes the upstream value.
                    {detail.pendingConflicts.some((c) => c.fields.length) ? ' Each field concerned shows both values below.' : ''}
                  </Text>
                  {detail.pendingConflicts
                    .filter((c) => !c.fields.length)
                    .map((c) => (
                      <EntityConflict key={c.opId} conflict={c} name={name} actions={actions} />
                    ))}
                </Stack>
              </Alert>
            ) : null}
            {resolvedMessage && !detail.conflict ? (
              <Alert color="green" variant="light" withCloseButton closeButtonLabel="Dismiss" onClose={() => setResolvedMessage(null)}>
                {resolvedMessage}
              </Alert>
            ) : null}
            {resolve.error ? <ErrorDisplay error={resolve.error} title="The conflict is not resolved" /> : null}
            <Section title="Layers">
              <Group justify="space-between" wrap="wrap">
                <SegmentedControl aria-label="Layer" data={LAYERS} value={layer} onChange={setLayer} />
              </Group>
              <Text size="sm" c="dimmed">
                {LAYER_TEXT[layer]}
              </Text>
              <LayerView databaseId={databaseId} portableType={portableType} name={name} layer={layer} actions={actions} />
            </Section>
            <Section title="Edit">
              <EditorHost detail={detail} />
            </Section>
            <Card withBorder>
              <Disclosure sectionKey="configuration:entity:user-ops" title="User ops" description="Your edits of this entity, in replay order. Advanced shows each op's SQL.">
                {(advanced) => <UserOpsList databaseId={databaseId} portableType={portableType} name={name} showSql={advanced} />}
              </Disclosure>
            </Card>
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
