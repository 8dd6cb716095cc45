import { Button } from '@mantine/core';
import { useState } from 'react';
import { exportEntity, type PortableType } from '../../../api/pcd';
import { ErrorDisplay } from '../../../components/ErrorDisplay';

/** Downloads the entity as portable JSON (GET /pcd/export), the file an import takes back. */
export function ExportButton({ databaseId, portableType, name }: { databaseId: number; portableType: PortableType; name: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const portable = await exportEntity(databaseId, portableType, name);
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(portable, null, 2)}\n`], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${portableType}-${name.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="xs" variant="default" loading={busy} onClick={() => void download()} aria-label={`Export ${name} as JSON`}>
        Export JSON
      </Button>
      {error ? <ErrorDisplay error={error} title="Not exported" /> : null}
    </>
  );
}
