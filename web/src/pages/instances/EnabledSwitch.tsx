import { Switch } from '@mantine/core';
import { useUpdateInstance } from '../../api/instances';
import type { Instance } from '../../api/types';

/**
 * Enables or disables an instance. While a change is stored the switch shows it and takes no other
 * (it stays focusable: a disabled control would drop the keyboard focus).
 */
export function EnabledSwitch({ instance, withLabel = false }: { instance: Instance; withLabel?: boolean }) {
  const update = useUpdateInstance(instance.id);
  const enabled = update.isPending ? (update.variables.enabled ?? instance.enabled) : instance.enabled;
  return (
    <Switch
      aria-label={`${instance.name} enabled`}
      aria-busy={update.isPending}
      checked={enabled}
      onChange={(e) => {
        if (!update.isPending) update.mutate({ enabled: e.currentTarget.checked });
      }}
      label={withLabel ? (enabled ? 'Synced, checked for drift and scored' : 'Left alone') : undefined}
      error={update.isError ? update.error.message : undefined}
    />
  );
}
