import { Anchor, Badge, Card, Code, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { entityPath } from '../../api/pcd';
import { useParityMap, type ParityMap, type ParityScope, type ParitySupport } from '../../api/parity';
import { APP_LABELS, ARR_TYPE_OPTIONS, type ArrType } from '../../api/types';
import { useSearchParamPicks } from '../../app/search-params';
import { useDatabaseParam } from '../../components/DatabaseSelect';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';

/** The API's support values in words and colours (typed by them). */
const SUPPORT: Record<ParitySupport, { label: string; color: string; description: string }> = {
  native: { label: 'Own per app', color: 'blue', description: 'the database keeps a separate definition for each app' },
  shared: { label: 'Shared', color: 'green', description: 'one definition is synced to every app that has the concept; app-specific parts are scoped to their app' },
  unsupported: { label: 'Not in this app', color: 'gray', description: 'the app has no such concept' },
};

const SCOPE_LABELS: Record<ParityScope, string> = {
  custom_formats: 'Custom formats',
  quality_profiles: 'Quality profiles',
  quality_definitions: 'Quality definitions',
  delay_profiles: 'Delay profiles',
  metadata_profiles: 'Metadata profiles',
  instances: 'Instances',
  library: 'Library',
  releases: 'Releases',
  rename: 'Renaming',
  upgrades: 'Upgrades',
};

/** A table with a row per item and a column per app: the row's header, then one cell per app. */
function PerAppTable<T>({ apps, labelledBy, first, rows, rowKey, header, cell }: {
  apps: ArrType[];
  labelledBy: string;
  first: string;
  rows: T[];
  rowKey: (row: T) => string;
  header: (row: T) => ReactNode;
  cell: (row: T, app: ArrType) => ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table withTableBorder striped aria-labelledby={labelledBy}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{first}</Table.Th>
            {apps.map((app) => (
              <Table.Th scope="col" key={app}>
                {APP_LABELS[app]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              <Table.Th scope="row" fw={500}>
                {header(row)}
              </Table.Th>
              {apps.map((app) => (
                <Table.Td key={app}>{cell(row, app)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Matrix({ map }: { map: ParityMap }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="parity-matrix-title">
      <Title order={2} size="h4" id="parity-matrix-title">
        Entities per app
      </Title>
      <PerAppTable
        apps={map.apps}
        labelledBy="parity-matrix-title"
        first="Entity"
        rows={map.matrix}
        rowKey={(row) => row.entity}
        header={(row) => row.label}
        cell={(row, app) => (
          <Badge color={SUPPORT[row[app]].color} variant="light" radius="sm" style={{ textTransform: 'none' }}>
            {SUPPORT[row[app]].label}
          </Badge>
        )}
      />
      <Stack gap={2}>
        {(Object.keys(SUPPORT) as ParitySupport[]).map((support) => (
          <Text size="xs" key={support}>
            <strong>{SUPPORT[support].label}</strong>: {SUPPORT[support].description}
          </Text>
        ))}
      </Stack>
    </Stack>
  );
}

function Differences({ map, app }: { map: ParityMap; app: ArrType | null }) {
  const shown = map.semanticDifferences.filter((d) => app === null || d.apps.includes(app));
  const scopes = [...new Set(shown.map((d) => d.scope))];
  return (
    <Stack gap="sm" component="section" aria-labelledby="parity-differences-title">
      <Title order={2} size="h4" id="parity-differences-title">
        Where the apps differ ({shown.length})
      </Title>
      {scopes.map((scope) => (
        <Stack gap="xs" key={scope} component="section" aria-label={SCOPE_LABELS[scope]}>
          <Title order={3} size="h5">
            {SCOPE_LABELS[scope]}
          </Title>
          {shown
            .filter((d) => d.scope === scope)
            .map((d) => (
              <Card withBorder key={d.summary} p="sm">
                <Stack gap={4}>
                  <Group gap="xs" wrap="wrap">
                    {d.apps.map((a) => (
                      <Badge key={a} variant="default" radius="sm" style={{ textTransform: 'none' }}>
                        {APP_LABELS[a]}
                      </Badge>
                    ))}
                  </Group>
                  <Text size="sm" fw={600}>
                    {d.summary}
                  </Text>
                  <Text size="sm">{d.detail}</Text>
                  {d.suggestion ? <Text size="sm">What to do: {d.suggestion}</Text> : null}
                  <Text size="xs" c="dimmed">
                    From{' '}
                    {d.sourceRefs.map((ref, i) => (
                      <span key={ref}>
                        {i ? ', ' : ''}
                        <Code>{ref}</Code>
                      </span>
                    ))}
                  </Text>
                </Stack>
              </Card>
            ))}
        </Stack>
      ))}
    </Stack>
  );
}

function Profiles({ map, databaseId }: { map: ParityMap; databaseId: number }) {
  if (!map.profiles) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="parity-profiles-title">
      <Title order={2} size="h4" id="parity-profiles-title">
        Quality profiles per app
      </Title>
      <Text size="sm" c="dimmed">
        A profile fits an app when every quality it enables exists in that app.
      </Text>
      <PerAppTable
        apps={map.apps}
        labelledBy="parity-profiles-title"
        first="Profile"
        rows={map.profiles}
        rowKey={(profile) => profile.name}
        header={(profile) => (
          <Anchor component={Link} to={entityPath(databaseId, 'quality_profile', profile.name)}>
            {profile.name}
          </Anchor>
        )}
        cell={(profile, app) => (profile.compatibleArrTypes.includes(app) ? 'fits' : '–')}
      />
    </Stack>
  );
}

/** Which entities and fields exist in which app family, and which of a database's profiles fit which app. */
export function ParityPage() {
  const [params, set] = useSearchParamPicks();
  const { databaseId, select: databaseSelect } = useDatabaseParam();
  const app = (params.get('arrType') || null) as ArrType | null;
  const parity = useParityMap(databaseId);
  return (
    <>
      <PageHeader title="Parity" description="Which entities and fields exist in Radarr, Sonarr and Lidarr, how arrgo keeps them, and which profiles fit which app." />
      <Stack gap="lg">
        <Group gap="sm" align="flex-end" wrap="wrap">
          {databaseSelect}
          <Select label="App" placeholder="Every app" data={ARR_TYPE_OPTIONS} value={app} onChange={(value) => set({ arrType: value })} clearable w={240} />
        </Group>
        <QueryState query={parity} loadingLabel="Loading the parity map">
          {(map) => (
            <Stack gap="lg">
              <Matrix map={map} />
              <Differences map={map} app={app} />
              {databaseId !== null ? <Profiles map={map} databaseId={databaseId} /> : null}
            </Stack>
          )}
        </QueryState>
      </Stack>
    </>
  );
}
