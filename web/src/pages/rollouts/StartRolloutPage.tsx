import { Alert, Anchor, Button, Card, Checkbox, Code, Group, List, MultiSelect, NumberInput, Radio, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { precheckRefusal, useRolloutCandidates, useStartRollout, type PrecheckRefusal, type RolloutStart } from '../../api/rollouts';
import { APP_LABELS, ARR_TYPE_OPTIONS, type ArrType } from '../../api/types';
import { Disclosure } from '../../components/Disclosure';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { PageHeader } from '../../components/PageHeader';
import { SECTION_LABELS, type SyncSection } from '../../components/SyncChangeList';

/** The sections an app family has (Lidarr alone has metadata profiles); the API refuses any other. */
function appSections(arrType: ArrType): SyncSection[] {
  return (Object.keys(SECTION_LABELS) as SyncSection[]).filter((s) => s !== 'metadataProfiles' || arrType === 'music_app');
}

interface FormValues {
  arrType: ArrType;
  canary: string | null;
  targets: string[];
  sections: SyncSection[];
  batchSize: number;
  partialPolicy: 'gate' | 'abort';
  evidenceMaxAgeMinutes: number;
  allowInSyncCanary: boolean;
}

const INITIAL: FormValues = {
  arrType: 'movie_app',
  canary: null,
  targets: [],
  sections: appSections('movie_app'),
  batchSize: 5,
  partialPolicy: 'gate',
  evidenceMaxAgeMinutes: 60,
  allowInSyncCanary: false,
};

function request(values: FormValues): RolloutStart {
  return {
    arrType: values.arrType,
    canaryInstanceId: Number(values.canary),
    targetInstanceIds: values.targets.map(Number),
    sections: values.sections,
    partialPolicy: values.partialPolicy,
    batchSize: values.batchSize,
    evidenceMaxAgeSeconds: values.evidenceMaxAgeMinutes * 60,
    ...(values.allowInSyncCanary ? { allowInSyncCanary: true } : {}),
  };
}

/** The pre-check's refusal: what it found, and the canary it suggests as one click. */
function Refusal({ refusal, onUseSuggested, busy }: { refusal: PrecheckRefusal; onUseSuggested: (id: number) => void; busy: boolean }) {
  const suggested = refusal.targetsWithChanges.find((t) => t.instanceId === refusal.suggestedCanaryInstanceId);
  return (
    <Alert color="yellow" variant="light" title={refusal.code === 'fleet_in_sync' ? 'Nothing to roll out' : 'The canary has nothing to change'} role="alert">
      <Stack gap="xs">
        <Text size="sm">
          <Code mr={6}>{refusal.code}</Code>
          {refusal.error}
        </Text>
        {refusal.targetsWithChanges.length ? (
          <List size="sm" aria-label="Targets with changes">
            {refusal.targetsWithChanges.map((t) => (
              <List.Item key={t.instanceId}>
                {t.instanceName}: {t.changes} {t.changes === 1 ? 'change' : 'changes'} ({t.counts.create} to create, {t.counts.update} to update, {t.counts.delete} to delete)
              </List.Item>
            ))}
          </List>
        ) : null}
        {refusal.unreadTargets.length ? <Text size="sm">Could not be read (changes unknown): {refusal.unreadTargets.map((t) => t.instanceName).join(', ')}</Text> : null}
        {suggested ? (
          <Group>
            <Button loading={busy} onClick={() => onUseSuggested(suggested.instanceId)}>
              Use {suggested.instanceName} as the canary
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}

export function StartRolloutPage() {
  const [values, setValues] = useState<FormValues>(INITIAL);
  const candidates = useRolloutCandidates(values.arrType);
  const start = useStartRollout();
  const navigate = useNavigate();
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const options = (candidates.data ?? []).map((i) => ({ value: String(i.id), label: i.name }));
  const refusal = precheckRefusal(start.error);

  const submit = (next: FormValues) => {
    setValues(next);
    start.mutate(request(next), { onSuccess: (rollout) => navigate(`/rollouts/${rollout.id}`) });
  };
  // The suggested target becomes the canary; the former canary becomes a target in its place.
  const switchToSuggested = (id: number) => {
    const canary = String(id);
    const targets = values.targets.map((t) => (t === canary ? values.canary! : t));
    submit({ ...values, canary, targets });
  };

  return (
    <Stack>
      <Anchor component={Link} to="/rollouts" size="sm">
        ← Rollouts
      </Anchor>
      <PageHeader
        title="Start a rollout"
        description="The canary is synced first. Every target is then previewed, and the rollout waits for you at the gate before it changes any of them."
      />
      <Card withBorder maw={720}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit(values);
          }}
        >
          <Stack>
            <Select
              label="App"
              required
              allowDeselect={false}
              data={ARR_TYPE_OPTIONS}
              value={values.arrType}
              onChange={(value) => value && setValues({ ...values, arrType: value as ArrType, canary: null, targets: [], sections: appSections(value as ArrType) })}
            />
            {candidates.isError ? <ErrorDisplay title="The instances could not be read" error={candidates.error} onRetry={() => void candidates.refetch()} /> : null}
            <Select
              label="Canary instance"
              description="Synced first: check it in the app before the others follow."
              placeholder={candidates.isPending ? 'Loading instances…' : `Pick a ${APP_LABELS[values.arrType]} instance`}
              required
              searchable
              nothingFoundMessage={`No enabled ${APP_LABELS[values.arrType]} instance`}
              data={options}
              value={values.canary}
              onChange={(canary) => setValues({ ...values, canary, targets: values.targets.filter((t) => t !== canary) })}
            />
            <MultiSelect
              label="Targets"
              description="The instances that follow the canary once you proceed."
              placeholder={values.targets.length ? undefined : 'Pick one or more instances'}
              required
              searchable
              hidePickedOptions
              nothingFoundMessage="No other instance"
              data={options.filter((o) => o.value !== values.canary)}
              value={values.targets}
              onChange={(targets) => set('targets', targets)}
            />
            <Group>
              <Button
                variant="default"
                size="xs"
                disabled={!values.canary}
                onClick={() => set('targets', options.filter((o) => o.value !== values.canary).map((o) => o.value))}
              >
                Add every other {APP_LABELS[values.arrType]} instance
              </Button>
            </Group>
            <Checkbox.Group label="Sections" description="What the rollout syncs." required value={values.sections} onChange={(sections) => set('sections', sections as SyncSection[])}>
              <Stack gap={6} mt={6}>
                {appSections(values.arrType).map((section) => (
                  <Checkbox key={section} value={section} label={SECTION_LABELS[section]} />
                ))}
              </Stack>
            </Checkbox.Group>
            <NumberInput
              label="Batch size"
              description="Targets synced at once after you proceed (1 to 100)."
              min={1}
              max={100}
              clampBehavior="strict"
              allowDecimal={false}
              required
              value={values.batchSize}
              onChange={(value) => set('batchSize', typeof value === 'number' ? value : 1)}
              w={200}
            />
            <Radio.Group
              label="When the canary syncs only partly"
              description="Some of its writes failed and others landed."
              value={values.partialPolicy}
              onChange={(value) => set('partialPolicy', value as 'gate' | 'abort')}
            >
              <Stack gap={6} mt={6}>
                <Radio value="gate" label="Go on to the gate with a warning (gate)" />
                <Radio value="abort" label="Stop the rollout; the targets stay untouched (abort)" />
              </Stack>
            </Radio.Group>
            <Disclosure
              sectionKey="rollouts:start:options"
              title="Advanced options"
              order={3}
              description="Starting a canary with nothing to change, and how long the evidence stays valid."
              advanced={
                <Stack mt="sm" gap="sm">
                  <Checkbox
                    label="Start even when the canary has nothing to change (allowInSyncCanary)"
                    description="Skips the check before the start. A canary with nothing to change is then skipped and the rollout ends aborted, as it proves nothing."
                    checked={values.allowInSyncCanary}
                    onChange={(e) => set('allowInSyncCanary', e.currentTarget.checked)}
                  />
                  <NumberInput
                    label="Evidence stays valid for (minutes)"
                    description="Proceeding with older target previews is refused until they are refreshed."
                    min={1}
                    max={10_080}
                    clampBehavior="strict"
                    allowDecimal={false}
                    value={values.evidenceMaxAgeMinutes}
                    onChange={(value) => set('evidenceMaxAgeMinutes', typeof value === 'number' ? value : 60)}
                    w={260}
                  />
                </Stack>
              }
            >
              {null}
            </Disclosure>
            {refusal ? <Refusal refusal={refusal} busy={start.isPending} onUseSuggested={switchToSuggested} /> : start.isError ? <ErrorDisplay title="Not started" error={start.error} /> : null}
            <Group justify="flex-end">
              <Button type="submit" loading={start.isPending} disabled={!values.canary || !values.targets.length || !values.sections.length}>
                Start the rollout
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
