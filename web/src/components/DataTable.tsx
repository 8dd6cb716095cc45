import { Table } from '@mantine/core';
import type { Key, ReactNode } from 'react';

export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
}

/**
 * A table of rows with a header; it scrolls sideways when the screen is narrower than `minWidth`.
 * `label` names it for assistive technology (and tests) when a page holds several.
 */
export function DataTable<T>({ columns, rows, rowKey, minWidth, striped = true, label }: { columns: Column<T>[]; rows: T[]; rowKey: (row: T) => Key; minWidth: number; striped?: boolean; label?: string }) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped={striped} verticalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.label}>{column.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((column) => (
                <Table.Td key={column.label}>{column.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
