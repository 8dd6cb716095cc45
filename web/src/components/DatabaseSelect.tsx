import { Select } from '@mantine/core';
import { useEffect, type ReactElement } from 'react';
import { useSearchParamPicks } from '../app/search-params';
import { useDatabases } from '../api/databases';
import type { Database } from '../api/types';

/**
 * The database a page works on, from its `?database=` search parameter (links and reloads keep
 * it); with none picked, the first database. `dropOnChange` names the parameters that belong to
 * the database picked before (a snapshot, a profile). Returns the id (null while loading or when
 * there is none) and the picker.
 */
export function useDatabaseParam(dropOnChange: readonly string[] = []): { databaseId: number | null; databases: Database[] | undefined; isPending: boolean; error: unknown; select: ReactElement } {
  const [params, setPicks] = useSearchParamPicks();
  const databases = useDatabases();
  const asked = Number(params.get('database'));
  const list = databases.data;
  const databaseId = list?.some((d) => d.id === asked) ? asked : (list?.[0]?.id ?? null);
  useEffect(() => {
    if (databaseId !== null && asked !== databaseId) {
      setPicks({ database: String(databaseId) }, { replace: true });
    }
  }, [databaseId, asked, setPicks]);
  const select = (
    <Select
      label="Database"
      data={(list ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
      value={databaseId === null ? null : String(databaseId)}
      allowDeselect={false}
      disabled={!list?.length}
      w={{ base: '100%', xs: 260 }}
      onChange={(value) => {
        if (!value) return;
        // Picks made in the previous database (a profile, a snapshot) go; the others stay.
        setPicks({ database: value, ...Object.fromEntries(dropOnChange.map((key) => [key, null])) });
      }}
    />
  );
  return { databaseId, databases: list, isPending: databases.isPending, error: databases.error, select };
}
