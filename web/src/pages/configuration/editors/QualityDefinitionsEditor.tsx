import { Table, Text } from '@mantine/core';
import { Disclosure } from '../../../components/Disclosure';
import { EditorFrame } from '../../../components/EditorFrame';
import { useEntityDraft } from './draft';
import { keyedListChanges } from './field-edits';
import { NumberField } from './NumberField';
import type { EditorProps } from './types';

interface Entry {
  quality: string;
  minSize: number;
  maxSize: number;
  preferredSize: number;
}

interface QualityDefinitions {
  name: string;
  entries: Entry[];
}

type SizeField = 'minSize' | 'preferredSize' | 'maxSize';

const SIZES: { field: SizeField; label: string }[] = [
  { field: 'minSize', label: 'Minimum' },
  { field: 'preferredSize', label: 'Preferred' },
  { field: 'maxSize', label: 'Maximum' },
];

/** Megabytes per minute (the apps' unit) as gigabytes per hour of video, for the advanced column. */
const gigabytesPerHour = (megabytesPerMinute: number) => ((megabytesPerMinute * 60) / 1024).toFixed(1);

/** Size limits per quality, in megabytes per minute of runtime, as the apps' Quality settings have them. */
export function QualityDefinitionsEditor(props: EditorProps) {
  const { draft, setDraft, frame } = useEntityDraft<QualityDefinitions>(props, (original, next) =>
    keyedListChanges(['entries'], original.entries, next.entries, 'quality', ['minSize', 'preferredSize', 'maxSize']),
  );
  const setSize = (quality: string, field: SizeField, value: number) =>
    setDraft({ ...draft, entries: draft.entries.map((e) => (e.quality === quality ? { ...e, [field]: value } : e)) });
  return (
    <EditorFrame {...frame}>
      <Disclosure
        sectionKey="configuration:quality-definitions:sizes"
        title="Sizes"
        description="Megabytes per minute of runtime (the apps' unit). Advanced: the same limits in gigabytes per hour."
      >
        {(advanced) => (
          <Table.ScrollContainer minWidth={advanced ? 720 : 560}>
            <Table striped verticalSpacing="xs" aria-label={`Sizes per quality of ${props.name}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Quality</Table.Th>
                  {SIZES.map((s) => (
                    <Table.Th key={s.field}>{s.label}</Table.Th>
                  ))}
                  {advanced ? <Table.Th>GB per hour (min / max)</Table.Th> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {draft.entries.map((entry) => (
                  <Table.Tr key={entry.quality}>
                    <Table.Td>{entry.quality}</Table.Td>
                    {SIZES.map((s) => (
                      <Table.Td key={s.field}>
                        <NumberField
                          aria-label={`${s.label} size of ${entry.quality}`}
                          min={0}
                          decimalScale={2}
                          value={entry[s.field]}
                          onValue={(value) => setSize(entry.quality, s.field, value)}
                          size="xs"
                          w={110}
                        />
                      </Table.Td>
                    ))}
                    {advanced ? (
                      <Table.Td>
                        <Text size="sm">
                          {gigabytesPerHour(entry.minSize)} / {gigabytesPerHour(entry.maxSize)}
                        </Text>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Disclosure>
    </EditorFrame>
  );
}
