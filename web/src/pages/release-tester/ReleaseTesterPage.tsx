import { Button, Card, Group, SegmentedControl, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSearchParamPicks } from '../../app/search-params';
import { useDatabases } from '../../api/databases';
import { RELEASE_TYPE_OPTIONS, useEvaluateReleases, type ReleaseType } from '../../api/entity-testing';
import { useResolvedEntities } from '../../api/pcd';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryState } from '../../components/QueryState';
import { ReleaseResults } from './ReleaseResults';

/** The API's bound of one evaluation (EVALUATE_LIMITS.releases): the page says it before sending. */
const MAX_TITLES = 1000;

/** One title a line; blank lines are skipped. */
function titlesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '');
}

export function ReleaseTesterPage() {
  const [params, setPicks] = useSearchParamPicks();
  const databases = useDatabases();
  const databaseParam = params.get('database');
  const databaseId = databaseParam ? Number(databaseParam) : (databases.data?.[0]?.id ?? null);
  const profile = params.get('profile');
  const type: ReleaseType = params.get('type') === 'series' ? 'series' : 'movie';
  const profiles = useResolvedEntities(databaseId, 'qualityProfile');
  const [text, setText] = useState('');
  const evaluate = useEvaluateReleases();
  const titles = titlesOf(text);
  const tooMany = titles.length > MAX_TITLES;

  // Profiles belong to the database they were picked in.
  const set = (name: string, value: string | null) => setPicks({ [name]: value, ...(name === 'database' ? { profile: null } : {}) }, { replace: true });

  // Results belong to the database, profile and type they were asked for.
  const { reset } = evaluate;
  useEffect(() => reset(), [databaseId, profile, type, reset]);

  const submit = () => {
    if (databaseId === null || titles.length === 0 || tooMany) return;
    evaluate.mutate({ databaseId, releases: titles.map((title, id) => ({ id, title, type })), ...(profile ? { profileName: profile } : {}) });
  };

  return (
    <>
      <PageHeader title="Release tester" description="Paste release titles: see how the apps parse them, which custom formats of a database they match and why, and their score in a quality profile." />
      <QueryState query={databases} loadingLabel="Loading databases" isEmpty={(list) => list.length === 0} empty={<Empty title="No database" description="Link a PCD database first: the titles are tested against its custom formats." />}>
        {(list) => (
          <Stack gap="md">
            <Card withBorder component="form" aria-label="Titles to test" onSubmit={(event) => { event.preventDefault(); submit(); }}>
              <Stack gap="sm">
                <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                  <Select
                    label="Database"
                    data={list.map((d) => ({ value: String(d.id), label: d.name }))}
                    value={databaseId === null ? null : String(databaseId)}
                    onChange={(value) => set('database', value)}
                    allowDeselect={false}
                    searchable
                  />
                  <Select
                    label="Quality profile"
                    description="Optional: adds each title's score"
                    placeholder="No profile"
                    data={(profiles.data?.entities ?? []).map((p) => p.name)}
                    value={profile}
                    onChange={(value) => set('profile', value)}
                    clearable
                    searchable
                  />
                  <Stack gap={4}>
                    <Text size="sm" fw={500} id="release-type-label">
                      Titles are
                    </Text>
                    <SegmentedControl aria-labelledby="release-type-label" data={RELEASE_TYPE_OPTIONS} value={type} onChange={(value) => set('type', value)} fullWidth />
                  </Stack>
                </SimpleGrid>
                <Textarea
                  label="Release titles"
                  description={`One title a line, up to ${MAX_TITLES.toLocaleString('en')}`}
                  placeholder="The.Movie.2019.2160p.UHD.BluRay.x265-GROUP"
                  value={text}
                  onChange={(event) => setText(event.currentTarget.value)}
                  autosize
                  minRows={6}
                  maxRows={16}
                  error={tooMany ? `${titles.length.toLocaleString('en')} titles: at most ${MAX_TITLES.toLocaleString('en')} can be tested at once` : undefined}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                />
                <Group justify="space-between">
                  <Text size="sm" c="dimmed" aria-live="polite">
                    {titles.length === 1 ? '1 title' : `${titles.length.toLocaleString('en')} titles`}
                  </Text>
                  <Button type="submit" loading={evaluate.isPending} disabled={databaseId === null || titles.length === 0 || tooMany}>
                    Test titles
                  </Button>
                </Group>
              </Stack>
            </Card>
            {/* A new test starts a new table: sorting, filters and the opened row belong to the titles they were set on. */}
            {evaluate.isError ? <ErrorDisplay error={evaluate.error} title="Not tested" /> : null}
            {evaluate.data && databaseId !== null ? <ReleaseResults key={evaluate.submittedAt} databaseId={databaseId} type={type} response={evaluate.data} /> : null}
          </Stack>
        )}
      </QueryState>
    </>
  );
}
