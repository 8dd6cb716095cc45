import { PcdDatabase, PcdOp } from '../../../src/persistence/entities';
import type { Orm } from '../../../src/persistence/orm';
import type { Logger } from '../../../src/platform/logger';
import { PcdCacheManager } from '../../../src/services/pcd/cache-manager';

/**
 * A cache build that fails because the database could not be read (PostgreSQL restarting) is
 * built again by the next read; the chaos soak found every preview refused with "its cache failed
 * to build" after a PostgreSQL restart, until the next pull.
 */
describe('PcdCacheManager after a database outage', () => {
  const row = { id: 1, enabled: true, lastPulledAt: new Date(), contentVersion: 1, userVersion: 0 };
  let opsReadable = false;
  const orm = {
    em: {
      fork: () => ({
        find: async (entity: unknown) => {
          if (entity === PcdDatabase) return [row];
          if (entity === PcdOp && !opsReadable) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { name: 'DriverException' });
          return [];
        },
      }),
    },
  } as unknown as Orm;
  const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const logger = Object.fromEntries(['debug', 'info', 'warn', 'error'].map((level) => [level, (fields: Record<string, unknown>, msg: string) => lines.push({ level, fields, msg })])) as unknown as Logger;
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('builds again once the database answers, and logs no error text above debug', async () => {
    const manager = new PcdCacheManager(orm, logger);
    await expect(manager.get(1)).rejects.toThrow('its cache is being built');
    await until(() => manager.status(1) === 'failed');
    expect(manager.status(1)).toBe('failed');

    opsReadable = true;
    await expect(manager.get(1)).rejects.toThrow('its cache is being built');
    await until(() => manager.status(1) === 'ready');
    expect(manager.status(1)).toBe('ready');
    await expect(manager.get(1)).resolves.toMatchObject({ databaseId: 1 });

    const failed = lines.find((l) => l.msg === 'pcd cache build failed')!;
    expect(failed).toMatchObject({ level: 'error', fields: { databaseId: 1, errorClass: 'Error', retryable: true } });
    expect(lines.filter((l) => l.level !== 'debug').map((l) => JSON.stringify(l.fields))).not.toContainEqual(expect.stringContaining('ECONNREFUSED'));
    manager.closeAll();
  });
});
