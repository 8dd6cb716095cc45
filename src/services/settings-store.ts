import type { EntityManager } from '@mikro-orm/core';
import type { ZodType } from 'zod';
import { AppSetting } from '../persistence/entities';

/** Keyed settings documents in app_settings, read with defaults and validated on the way in and out. */
export class SettingsStore {
  constructor(private readonly em: EntityManager) {}

  async get<T>(key: string, schema: ZodType<T>, defaults: T): Promise<T> {
    const row = await this.em.findOne(AppSetting, { key });
    if (!row) return defaults;
    const parsed = schema.safeParse({ ...defaults, ...row.value });
    return parsed.success ? parsed.data : defaults;
  }

  async put<T extends Record<string, unknown>>(key: string, value: T): Promise<T> {
    const row = await this.em.findOne(AppSetting, { key });
    if (row) {
      row.value = { ...value };
      row.updatedAt = new Date();
    } else {
      this.em.create(AppSetting, { key, value: { ...value }, updatedAt: new Date() });
    }
    await this.em.flush();
    return value;
  }
}
