import { Alert, Anchor, Button, Card, FileButton, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { refusedField, useImportEntity, type PortableImport, type PortableType } from '../../api/pcd';
import { DataTable } from '../../components/DataTable';
import { errorMessage, ErrorDisplay } from '../../components/ErrorDisplay';
import { FieldValue } from './entity/values';
import { entityUrl } from './urls';

/** Largest file the upload reads (the API's body limit is larger; a portable entity is far smaller). */
const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;

type Parsed = { ok: true; body: Record<string, unknown> } | { ok: false; message: string } | null;

function parse(text: string): Parsed {
  if (!text.trim()) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: 'The JSON must be an object: an export ({"entityType": ..., "data": {...}}).' };
    return { ok: true, body: value as Record<string, unknown> };
  } catch {
    return { ok: false, message: 'This is not valid JSON.' };
  }
}

/** A path segment as the API writes it (dots and backslashes escaped). */
const segment = (s: string | number) => String(s).replace(/\\/g, '\\\\').replace(/\./g, '\\.');

/**
 * Leaf fields of the pasted request, with the paths the API's refusals use: array items by index
 * (shape errors) and, for items with a name, by name too (reference errors).
 */
function leafFields(value: unknown, path: string[] = [], out: { paths: string[]; value: unknown }[] = []): { paths: string[]; value: unknown }[] {
  if (Array.isArray(value) && value.length) {
    value.forEach((item, i) => {
      const named = item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string' ? (item as { name: string }).name : null;
      const before = out.length;
      leafFields(item, [...path, segment(i)], out);
      if (named !== null) for (const leaf of out.slice(before)) leaf.paths.push(leaf.paths[0].replace(`${[...path, segment(i)].join('.')}`, [...path, segment(named)].join('.')));
    });
  } else if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [key, child] of Object.entries(value)) leafFields(child, [...path, segment(key)], out);
  } else {
    out.push({ paths: [path.join('.')], value });
  }
  return out;
}

/** The pasted request's fields, the refused one marked with the API's message beside it. */
function RequestFields({ body, field, message }: { body: Record<string, unknown>; field: string | null; message: string | null }) {
  const rows = useMemo(() => {
    const leaves = leafFields(body).map((l) => ({ path: l.paths[0], paths: l.paths.map((p) => `body.${p}`), value: l.value, missing: false }));
    if (field && !leaves.some((l) => l.paths.includes(field))) leaves.unshift({ path: field.replace(/^body\./, ''), paths: [field], value: undefined, missing: true });
    return leaves;
  }, [body, field]);
  return (
    <DataTable
      label="Fields of the entity to import"
      minWidth={480}
      rows={rows}
      rowKey={(r) => r.path}
      columns={[
        { label: 'Field', cell: (r) => <Text size="sm" style={{ wordBreak: 'break-word' }}>{r.path}</Text> },
        {
          label: 'Value',
          cell: (r) => {
            const refused = field !== null && r.paths.includes(field);
            return (
              <Stack gap={4} aria-invalid={refused || undefined}>
                {r.missing ? <Text size="sm" c="dimmed">(missing)</Text> : <FieldValue value={r.value} />}
                {refused ? (
                  <Text size="sm" c="red" role="alert">
                    {message}
                  </Text>
                ) : null}
              </Stack>
            );
          },
        },
      ]}
    />
  );
}

/** Import of one entity from portable JSON (an export, uploaded or pasted) into the database's user layer. */
export function ImportPanel({ databaseId }: { databaseId: number }) {
  const [text, setText] = useState('');
  const [uploadError, setUploadError] = useState<string | null>(null);
  const importEntity = useImportEntity();
  const parsed = useMemo(() => parse(text), [text]);
  const field = refusedField(importEntity.error);
  const imported = importEntity.isSuccess ? importEntity.variables : null;

  const upload = async (file: File | null) => {
    setUploadError(null);
    if (!file) return;
    if (file.size > UPLOAD_MAX_BYTES) return setUploadError(`The file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB: a portable entity is far smaller.`);
    importEntity.reset();
    setText(await file.text());
  };
  const submit = () => {
    if (!parsed?.ok) return;
    importEntity.mutate({ ...(parsed.body as Partial<PortableImport>), databaseId, layer: 'user' } as PortableImport);
  };

  return (
    <Card withBorder component="section" aria-label="Import an entity">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Import an entity
        </Title>
        <Text size="sm" c="dimmed">
          Paste or upload an export (Export JSON on an entity page). It is created in this database's user layer; the repository is not changed.
        </Text>
        <Textarea
          label="Portable JSON"
          autosize
          minRows={4}
          maxRows={14}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            importEntity.reset();
          }}
          error={parsed && !parsed.ok ? parsed.message : undefined}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Group gap="xs">
          <FileButton onChange={(file) => void upload(file)} accept="application/json,.json">
            {(props) => (
              <Button variant="default" {...props}>
                Upload a JSON file
              </Button>
            )}
          </FileButton>
          <Button onClick={submit} disabled={!parsed?.ok} loading={importEntity.isPending}>
            Import
          </Button>
        </Group>
        {uploadError ? <Alert color="red">{uploadError}</Alert> : null}
        {imported ? (
          <Alert color="green" variant="light" title="Imported">
            {typeof imported.data?.name === 'string' ? (
              <Anchor component={Link} to={entityUrl(databaseId, imported.entityType as PortableType, imported.data.name)}>
                Open {imported.data.name}
              </Anchor>
            ) : (
              'The entity was created.'
            )}
          </Alert>
        ) : null}
        {importEntity.error && !field ? <ErrorDisplay error={importEntity.error} title="Not imported" /> : null}
        {importEntity.error && field ? (
          <Alert color="red" variant="light" title="Not imported">
            The API refused the field {field.replace(/^body\./, '')}; it is marked below.
          </Alert>
        ) : null}
        {parsed?.ok ? <RequestFields body={parsed.body} field={field} message={importEntity.error ? errorMessage(importEntity.error) : null} /> : null}
      </Stack>
    </Card>
  );
}
