import { BigIntType, EntitySchema } from '@mikro-orm/core';

/**
 * Hits of one rate limit's subject in one bucket of its sliding window (`domain/rate-limit.ts`),
 * shared by every API process. Written only by the atomic upsert of `services/shared-rate-limit.ts`.
 */
export class RateLimitWindow {
  limitName!: string;
  subject!: string;
  /** Epoch milliseconds. */
  windowStart!: number;
  hits!: number;
  /** Epoch milliseconds after which the row no longer counts and is pruned. */
  expiresAt!: number;
}

export const RateLimitWindowSchema = new EntitySchema<RateLimitWindow>({
  class: RateLimitWindow,
  tableName: 'rate_limit_windows',
  indexes: [{ name: 'rate_limit_windows_expires_index', properties: ['expiresAt'] }],
  properties: {
    limitName: { type: 'string', length: 40, primary: true, fieldName: 'limit_name' },
    subject: { type: 'string', length: 100, primary: true },
    windowStart: { type: new BigIntType('number'), primary: true, fieldName: 'window_start' },
    hits: { type: 'integer' },
    expiresAt: { type: new BigIntType('number'), fieldName: 'expires_at' },
  },
});

/** Failed sign-ins of one throttle key (`domain/auth/login-throttle.ts`), shared by every API process. */
export class LoginThrottleRecord {
  throttleKey!: string;
  failures!: number;
  /** Epoch milliseconds: end of the lock, or the last failure while not locked. */
  quietFrom!: number;
  pending!: number;
  pendingSince!: number;
  /** Compare-and-set token: every change of the row increments it. */
  version!: number;
}

export const LoginThrottleRecordSchema = new EntitySchema<LoginThrottleRecord>({
  class: LoginThrottleRecord,
  tableName: 'login_throttle',
  properties: {
    throttleKey: { type: 'string', length: 255, primary: true, fieldName: 'throttle_key' },
    failures: { type: 'integer' },
    quietFrom: { type: new BigIntType('number'), fieldName: 'quiet_from' },
    pending: { type: 'integer' },
    pendingSince: { type: new BigIntType('number'), fieldName: 'pending_since' },
    version: { type: 'integer' },
  },
});
