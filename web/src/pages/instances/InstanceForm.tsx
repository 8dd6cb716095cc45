import { Button, Group, PasswordInput, Select, Stack, Switch, TagsInput, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ARR_TYPE_OPTIONS, type ArrType, type Instance } from '../../api/types';

export interface InstanceFormValues {
  name: string;
  arrType: ArrType;
  baseUrl: string;
  apiKey: string;
  tags: string[];
  enabled: boolean;
}

export function initialValues(instance?: Instance): InstanceFormValues {
  return {
    name: instance?.name ?? '',
    arrType: instance?.arrType ?? 'movie_app',
    baseUrl: instance?.baseUrl ?? '',
    apiKey: '',
    tags: instance?.tags ?? [],
    enabled: instance?.enabled ?? true,
  };
}

interface InstanceFormProps {
  /** The instance being edited; a new one without. */
  instance?: Instance;
  submitLabel: string;
  busy: boolean;
  /** Shown above the buttons: the API's refusal. */
  error?: ReactNode;
  onSubmit: (values: InstanceFormValues) => void;
  onCancel?: () => void;
}

/** The fields of an instance: the API checks them (and tests the connection) when they are sent. */
export function InstanceForm({ instance, submitLabel, busy, error, onSubmit, onCancel }: InstanceFormProps) {
  const [values, setValues] = useState(() => initialValues(instance));
  const set = <K extends keyof InstanceFormValues>(key: K, value: InstanceFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(values);
      }}
    >
      <Stack>
        <TextInput label="Name" required value={values.name} onChange={(e) => set('name', e.currentTarget.value)} />
        <Select label="App" required allowDeselect={false} data={ARR_TYPE_OPTIONS} value={values.arrType} onChange={(value) => value && set('arrType', value as ArrType)} />
        <TextInput
          label="URL"
          description="The app's address with its URL base, without /api/v3"
          placeholder="http://radarr:7878"
          required
          value={values.baseUrl}
          onChange={(e) => set('baseUrl', e.currentTarget.value)}
        />
        <PasswordInput
          label="API key"
          description={instance ? 'Leave empty to keep the stored key' : "The app's Settings > General > API Key"}
          required={!instance}
          autoComplete="off"
          value={values.apiKey}
          onChange={(e) => set('apiKey', e.currentTarget.value)}
        />
        <TagsInput label="Tags" description="Press Enter after each tag" value={values.tags} onChange={(tags) => set('tags', tags)} />
        {instance ? null : <Switch label="Enabled" checked={values.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />}
        {error}
        <Group justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The changed fields only (a PATCH); an empty API key keeps the stored one. */
export function changedFields(instance: Instance, values: InstanceFormValues) {
  const patch: Partial<Omit<InstanceFormValues, 'enabled'>> = {};
  if (values.name !== instance.name) patch.name = values.name;
  if (values.arrType !== instance.arrType) patch.arrType = values.arrType;
  if (values.baseUrl !== instance.baseUrl) patch.baseUrl = values.baseUrl;
  if (values.apiKey !== '') patch.apiKey = values.apiKey;
  if (values.tags.join('\n') !== instance.tags.join('\n')) patch.tags = values.tags;
  return patch;
}
