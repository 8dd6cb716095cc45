import { Group, Pagination, Text } from '@mantine/core';

/** Under a paged list: how many there are, and the page buttons (shown only when there is more than one page). */
export function Pager({ page, totalPages, totalRecords, pageSize, noun, onChange }: { page: number; totalPages: number; totalRecords: number; pageSize: number; noun: string; onChange: (page: number) => void }) {
  if (totalPages <= 1) return null;
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {totalRecords} {noun}, {pageSize} a page
      </Text>
      <Pagination total={totalPages} value={page} onChange={onChange} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
    </Group>
  );
}
