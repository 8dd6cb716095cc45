import { EntitySchema } from '@mikro-orm/core';
import { updatedAtColumn } from './timestamps';

/** Small keyed settings documents (backup, drift polling, sync-history retention...). */
export class AppSetting {
  key!: string;
  value!: Record<string, unknown>;
  updatedAt: Date = new Date();
}

export const AppSettingSchema = new EntitySchema<AppSetting>({
  class: AppSetting,
  tableName: 'app_settings',
  properties: {
    key: { type: 'string', length: 100, primary: true },
    value: { type: 'json' },
    updatedAt: updatedAtColumn(),
  },
});
