import { Badge, Code, Group, Stack, Table, Text, Title, type TitleOrder } from '@mantine/core';
import type { components } from '../api/client';
import { FailureEvidence, type Evidence } from './FailureEvidence';

type Schemas = components['schemas'];
export type SyncChange = Schemas['SyncChange'];
export type SyncSection = Schemas['SyncSection'];
type FieldChange = Schemas['FieldChange'];

/** The sections in the API's order, with the names the *arr apps use for them. */
export const SECTION_LABELS: Record<SyncSection, string> = {
  qualityProfiles: 'Quality profiles and custom formats',
  delayProfiles: 'Delay profile',
  mediaManagement: 'Media management',
  metadataProfiles: 'Metadata profile',
};

const ENTITY_LABELS: Record<string, string> = {
  customFormat: 'Custom formats',
  qualityProfile: 'Quality profiles',
  delayProfile: 'Delay profile',
  naming: 'Naming',
  mediaSettings: 'Media settings',
  qualityDefinition: 'Quality definitions',
  metadataProfile: 'Metadata profile',
};

// What an entry means, as a word and a colour: a drift entry says its category, a preview entry its action.
const KINDS: Record<string, { label: string; color: string }> = {
  create: { label: 'create', color: 'green' },
  update: { label: 'update', color: 'blue' },
  delete: { label: 'delete', color: 'red' },
  unchanged: { label: 'unchanged', color: 'gray' },
  drift: { label: 'drifted', color: 'yellow' },
  missing: { label: 'missing', color: 'orange' },
  unmanaged: { label: 'unmanaged', color: 'gray' },
};

/** A preview's changes as the API groups them (one group object per section). */
export interface PreviewGroups {
  qualityProfiles: { customFormats: SyncChange[]; qualityProfiles: SyncChange[] } | null;
  delayProfiles: { profile: SyncChange | null } | null;
  mediaManagement: { naming: SyncChange | null; qualityDefinitions: SyncChange[]; mediaSettings: SyncChange | null } | null;
  metadataProfiles: { profile: SyncChange | null } | null;
}

/** A preview's grouped changes as one list, each change carrying its section (as drift entries do). */
export function previewChanges(preview: PreviewGroups): SyncChange[] {
  const inSection = (section: SyncSection, changes: (SyncChange | null | undefined)[]) => changes.filter((c): c is SyncChange => !!c).map((c) => ({ ...c, section }));
  return [
    ...inSection('qualityProfiles', [...(preview.qualityProfiles?.customFormats ?? []), ...(preview.qualityProfiles?.qualityProfiles ?? [])]),
    ...inSection('delayProfiles', [preview.delayProfiles?.profile]),
    ...inSection('mediaManagement', [preview.mediaManagement?.naming, preview.mediaManagement?.mediaSettings, ...(preview.mediaManagement?.qualityDefinitions ?? [])]),
    ...inSection('metadataProfiles', [preview.metadataProfiles?.profile]),
  ];
}

/** A field value as text: absent values are a dash, objects and lists their JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function Value({ value }: { value: unknown }) {
  const text = formatValue(value);
  return typeof value === 'object' && value !== null ? (
    <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {text}
    </Code>
  ) : (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      {text}
    </Text>
  );
}

/** Field changes in a table; the value columns say what is compared (current and desired by default). */
export function FieldTable({ name, fields, columns = ['Current', 'Desired'] }: { name: string; fields: FieldChange[]; columns?: [string, string] }) {
  return (
    <Table aria-label={`${name}: field changes`} layout="fixed" verticalSpacing={4} withTableBorder fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="34%">Field</Table.Th>
          <Table.Th>{columns[0]}</Table.Th>
          <Table.Th>{columns[1]}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fields.map((field) => (
          <Table.Tr key={field.field}>
            <Table.Th scope="row" fw={500} style={{ wordBreak: 'break-word' }}>
              {field.field}
              {field.type === 'changed' ? null : (
                <Text span size="xs" c="dimmed">
                  {' '}
                  ({field.type})
                </Text>
              )}
            </Table.Th>
            <Table.Td>
              <Value value={field.current} />
            </Table.Td>
            <Table.Td>
              <Value value={field.desired} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ChangeEntry({ change }: { change: SyncChange }) {
  const kind = KINDS[change.category ?? change.action] ?? KINDS.unchanged;
  return (
    <Stack gap={4} component="li" style={{ listStyle: 'none' }}>
      <Group gap="xs" wrap="nowrap">
        <Badge color={kind.color} variant="light" radius="sm" style={{ textTransform: 'none', flexShrink: 0 }}>
          {kind.label}
        </Badge>
        <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
          {change.name}
        </Text>
      </Group>
      {change.fields.length ? <FieldTable name={change.name} fields={change.fields} /> : null}
    </Stack>
  );
}

interface SyncChangeListProps {
  /** Changes with their section set: drift entries as they come, a preview's through previewChanges(). */
  changes: SyncChange[];
  /** Failure evidence of sections that could not be read or planned, shown under their heading. */
  sectionFailures?: Partial<Record<SyncSection, Evidence>>;
  /** Show entries that stay as they are (default: counted, not listed). */
  showUnchanged?: boolean;
  /** The heading level of the section titles, under the heading of what holds the list. */
  headingOrder?: TitleOrder;
  /** Said when there is nothing to list. */
  emptyText?: string;
}

/**
 * SyncChanges grouped by section and entity type, each with its field-level current and desired
 * values side by side: the diff of a sync preview, a rollout's evidence and a drift result.
 */
export function SyncChangeList({ changes, sectionFailures = {}, showUnchanged = false, headingOrder = 3, emptyText = 'Nothing to change.' }: SyncChangeListProps) {
  const sections = (Object.keys(SECTION_LABELS) as SyncSection[]).filter((s) => sectionFailures[s] || changes.some((c) => c.section === s));
  if (!sections.length) return <Text size="sm" c="dimmed">{emptyText}</Text>;
  return (
    <Stack gap="md">
      {sections.map((section) => {
        const inSection = changes.filter((c) => c.section === section);
        const shown = showUnchanged ? inSection : inSection.filter((c) => c.action !== 'unchanged');
        const hidden = inSection.length - shown.length;
        const types = [...new Set(shown.map((c) => c.entityType))];
        const failure = sectionFailures[section];
        return (
          <Stack key={section} gap="xs" component="section" aria-label={SECTION_LABELS[section]}>
            <Title order={headingOrder} size={headingOrder >= 5 ? 'h6' : 'h5'}>
              {SECTION_LABELS[section]}
            </Title>
            {failure ? <FailureEvidence evidence={failure} title={`${SECTION_LABELS[section]} could not be read`} /> : null}
            {types.map((type) => (
              <Stack key={type} gap={6}>
                {/* "Delay profile" under "Delay profile" says nothing new. */}
                {ENTITY_LABELS[type] === SECTION_LABELS[section] ? null : (
                  <Text size="sm" c="dimmed" fw={600}>
                    {ENTITY_LABELS[type] ?? type}
                  </Text>
                )}
                <Stack gap="sm" component="ul" m={0} p={0}>
                  {shown
                    .filter((c) => c.entityType === type)
                    .map((change) => (
                      <ChangeEntry key={`${change.entityType}:${change.name}:${change.remoteId ?? ''}`} change={change} />
                    ))}
                </Stack>
              </Stack>
            ))}
            {hidden ? (
              <Text size="xs" c="dimmed">
                {hidden} unchanged {hidden === 1 ? 'entry' : 'entries'} not listed
              </Text>
            ) : null}
            {!failure && !shown.length && !hidden ? (
              <Text size="sm" c="dimmed">
                {emptyText}
              </Text>
            ) : null}
          </Stack>
        );
      })}
    </Stack>
  );
}
