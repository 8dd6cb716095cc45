import type { AbstractSqlPlatform } from '@mikro-orm/knex';
import { bindStrings } from '../../../src/persistence/bound-parameters';

const platform = {
  quoteValue: (v: unknown) => (v instanceof Date ? String(v.getTime()) : v === null ? 'null' : typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v)),
  quoteIdentifier: (id: string) => `"${id}"`,
} as unknown as AbstractSqlPlatform;

describe('bindStrings', () => {
  it('keeps strings out of the SQL text as bound parameters and inlines the rest as MikroORM does', () => {
    const at = new Date(1_700_000_000_000);
    expect(bindStrings(platform, 'select * from ?? where name = ? and id in (?) and at < ? and ok = ? and gone is ?', ['t', "O'Brien\u0000?", [1, 'two', 3], at, true, null])).toEqual({
      sql: 'select * from "t" where name = ? and id in (1, ?, 3) and at < 1700000000000 and ok = true and gone is null',
      bindings: ["O'Brien\u0000?", 'two'],
    });
  });

  it('falls back (null) when it cannot place every parameter safely', () => {
    expect(bindStrings(platform, 'select ? where a = \\?', ['x'])).toBeNull();
    expect(bindStrings(platform, 'select ?', ['x', 'y'])).toBeNull();
    expect(bindStrings(platform, 'select ?, ?', ['x'])).toBeNull();
    expect(bindStrings({ ...platform, quoteValue: () => "'a?b'" } as unknown as AbstractSqlPlatform, 'select ?', [{ json: 1 }])).toBeNull();
  });
});
