import { EntitySchema } from '@mikro-orm/core';
import { createdAtColumn, updatedAtColumn } from './timestamps';

/** A console user (the admin created at first start). */
export class User {
  id!: number;
  username!: string;
  /** scrypt hash, self-describing (`scrypt$N$r$p$salt$hash`). */
  passwordHash!: string;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export const UserSchema = new EntitySchema<User>({
  class: User,
  tableName: 'users',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    username: { type: 'string', length: 64, unique: true },
    passwordHash: { type: 'string', length: 200, fieldName: 'password_hash' },
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});

/** A signed-in console session. Only the SHA-256 of the cookie's session id is stored. */
export class Session {
  /** Hex SHA-256 of the session id. */
  idHash!: string;
  userId!: number;
  /** Sent back in X-Arrgo-Csrf by cookie-authenticated writes. */
  csrfToken!: string;
  createdAt: Date = new Date();
  expiresAt!: Date;
}

export const SessionSchema = new EntitySchema<Session>({
  class: Session,
  tableName: 'sessions',
  indexes: [
    { name: 'sessions_user_index', properties: ['userId'] },
    { name: 'sessions_expires_index', properties: ['expiresAt'] },
  ],
  properties: {
    idHash: { type: 'string', length: 64, primary: true, fieldName: 'id_hash' },
    userId: { type: 'integer', fieldName: 'user_id' },
    csrfToken: { type: 'string', length: 64, fieldName: 'csrf_token' },
    createdAt: createdAtColumn(),
    expiresAt: { type: 'Date', fieldName: 'expires_at' },
  },
});
