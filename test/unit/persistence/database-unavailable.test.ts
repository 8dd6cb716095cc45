import { DriverException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { isDatabaseUnavailable } from '../../../src/persistence/database-unavailable';

const driverError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection, wrapped by MikroORM', new DriverException(driverError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))],
    ['a connection ended mid-query (MikroORM prefixes the query)', new DriverException(driverError('select 1 - Connection terminated unexpectedly'))],
    ['an administrator shutdown (57P01)', new DriverException(driverError('terminating connection due to administrator command', '57P01'))],
    ['a server starting up (57P03)', driverError('the database system is starting up', '57P03')],
    ['a connection exception class (08006)', driverError('connection failure', '08006')],
    ['a statement of a transaction knex ended when its connection dropped', new DriverException(driverError('Transaction query already complete, run with DEBUG=knex:tx for more info'))],
    ["knex's pool timeout", Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' })],
  ])('is true for %s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', new UniqueConstraintViolationException(driverError('duplicate key value violates unique constraint', '23505'))],
    ['a syntax error', driverError('syntax error at or near "selec"', '42601')],
    ['an error that names a connection in its text only', new Error('the app instance refused the Connection terminated by its proxy')],
    ['nothing', undefined],
  ])('is false for %s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
