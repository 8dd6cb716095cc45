import { Select } from '@mantine/core';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useDatabases } from '../api/databases';

/** A page's picks in its URL search parameters (so links and reloads keep them); null removes one. */
export function usePageParams(): [URLSearchParams, (changes: Record<string, string | null>) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params, set];
}

/** The database in ?database=, or the first linked database when none is picked (null while loading or when none is linked). */
export function usePickedDatabase(params: URLSearchParams): number | null {
  const databases = useDatabases();
  const picked = Number(params.get('database'));
  if (Number.isInteger(picked) && picked > 0) return picked;
  return databases.data?.[0]?.id ?? null;
}

/** Picks the page's database (?database=). */
export function DatabaseSelect({ value, onChange }: { value: number | null; onChange: (databaseId: number) => void }) {
  const databases = useDatabases();
  return (
    <Select
      label="Database"
      data={(databases.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
      value={value === null ? null : String(value)}
      onChange={(id) => id && onChange(Number(id))}
      allowDeselect={false}
      w={220}
      placeholder={databases.isPending ? 'Loading…' : 'No database linked'}
    />
  );
}
