import { Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useAddAnnotation, useDeleteAnnotation, useEditAnnotation, type TimelineAnnotation } from '../../api/timeline';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { TimeAgo } from '../../components/TimeAgo';

function NoteForm({ initial, submitLabel, busy, error, onSubmit, onCancel }: { initial: string; submitLabel: string; busy: boolean; error: unknown; onSubmit: (body: string) => void; onCancel: () => void }) {
  const [body, setBody] = useState(initial);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(body);
      }}
    >
      <Stack gap="xs">
        <Textarea label="Note" autosize minRows={2} maxRows={8} required value={body} onChange={(e) => setBody(e.currentTarget.value)} data-autofocus />
        {error ? <ErrorDisplay title="Not saved" error={error} /> : null}
        <Group gap="xs">
          <Button type="submit" size="xs" loading={busy}>
            {submitLabel}
          </Button>
          <Button size="xs" variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Annotation({ annotation }: { annotation: TimelineAnnotation }) {
  const [editing, setEditing] = useState(false);
  const edit = useEditAnnotation();
  const remove = useDeleteAnnotation();
  if (editing) {
    return (
      <NoteForm
        initial={annotation.body}
        submitLabel="Save note"
        busy={edit.isPending}
        error={edit.error}
        onCancel={() => {
          edit.reset();
          setEditing(false);
        }}
        onSubmit={(body) => edit.mutate({ id: annotation.id, body }, { onSuccess: () => setEditing(false) })}
      />
    );
  }
  const edited = annotation.updatedAt !== annotation.createdAt;
  return (
    <Paper withBorder p="xs" component="figure" m={0} aria-label="Note">
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} component="blockquote" m={0}>
        {annotation.body}
      </Text>
      <Group justify="space-between" mt={4} wrap="wrap" gap="xs">
        <Text size="xs" c="dimmed" component="figcaption">
          Noted <TimeAgo iso={annotation.createdAt} />
          {edited ? (
            <>
              , edited <TimeAgo iso={annotation.updatedAt} />
            </>
          ) : null}
        </Text>
        <Group gap={4}>
          <Button size="compact-xs" variant="subtle" onClick={() => setEditing(true)}>
            Edit note
          </Button>
          <ConfirmButton
            size="compact-xs"
            variant="subtle"
            color="red"
            title="Delete this note?"
            message="The note is removed from the timeline. The event itself stays."
            loading={remove.isPending}
            onConfirm={() => remove.mutateAsync(annotation.id).catch(() => undefined)}
          >
            Delete note
          </ConfirmButton>
        </Group>
      </Group>
      {remove.isError ? <ErrorDisplay title="Not deleted" error={remove.error} /> : null}
    </Paper>
  );
}

/** An event's notes (the timeline's only stored state): read, add, edit, delete. */
export function Annotations({ eventId, annotations }: { eventId: string; annotations: TimelineAnnotation[] }) {
  const [adding, setAdding] = useState(false);
  const add = useAddAnnotation();
  return (
    <Stack gap={6}>
      {annotations.map((annotation) => (
        <Annotation key={annotation.id} annotation={annotation} />
      ))}
      {adding ? (
        <NoteForm
          initial=""
          submitLabel="Add note"
          busy={add.isPending}
          error={add.error}
          onCancel={() => {
            add.reset();
            setAdding(false);
          }}
          onSubmit={(body) =>
            add.mutate(
              { eventId, body },
              {
                onSuccess: () => {
                  add.reset();
                  setAdding(false);
                },
              },
            )
          }
        />
      ) : (
        <Group>
          <Button size="compact-xs" variant="light" onClick={() => setAdding(true)}>
            Add a note
          </Button>
        </Group>
      )}
    </Stack>
  );
}
