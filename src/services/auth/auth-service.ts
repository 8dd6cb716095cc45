import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { WRONG_CREDENTIALS } from '../../domain/auth/credentials';
import { LoginThrottle, throttleKeys } from '../../domain/auth/login-throttle';
import { AppError, conflict, rateLimited } from '../../errors';
import { randomToken, sha256Hex } from '../../platform/crypto';
import type { Logger } from '../../platform/logger';
import { UNUSABLE_PASSWORD_HASH, hashPassword, verifyPassword } from '../../platform/passwords';
import type { ApiKeySource, ApiKeyStore } from '../../platform/secrets';
import type { Orm } from '../../persistence/orm';
import { Session, User } from '../../persistence/entities';
import { DatabaseThrottleStore } from './login-throttle-store';

/** A new session: the id goes into the cookie and nowhere else. */
export interface SignedIn {
  username: string;
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface SessionView {
  username: string;
  csrfToken: string;
  expiresAt: Date;
}

export type SessionLookup = { status: 'valid'; session: SessionView } | { status: 'expired' } | { status: 'unknown' };

export interface AuthDeps {
  orm: Orm;
  apiKeys: ApiKeyStore;
  logger: Logger;
  sessionTtlHours: number;
}

// 32 random bytes, base64url: anything else is no session id of ours (and costs no query).
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * Console sign-in (one instance per API process): the admin user created once at setup, password
 * sign-in with throttling of failures per username and per client address (kept in the database,
 * shared by every API process),
 * server-side sessions, and the service API key.
 */
export class AuthService {
  private readonly throttle: LoginThrottle;
  /** Once a user exists it always does (there is no user deletion). */
  private userExists = false;
  private setups: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: AuthDeps) {
    this.throttle = new LoginThrottle(new DatabaseThrottleStore(deps.orm));
  }

  async setupRequired(): Promise<boolean> {
    if (!this.userExists) this.userExists = (await this.deps.orm.em.fork().count(User, {})) > 0;
    return !this.userExists;
  }

  /** Creates the admin user and signs it in; only while no user exists (409 after). */
  setup(username: string, password: string, replacedSessionId: string | undefined): Promise<SignedIn> {
    // Setups run one at a time, so two first visitors cannot both create an admin.
    const run = this.setups.then(() => this.setupNow(username, password, replacedSessionId));
    this.setups = run.catch(() => undefined);
    return run;
  }

  private async setupNow(username: string, password: string, replacedSessionId: string | undefined): Promise<SignedIn> {
    if (!(await this.setupRequired())) throw conflict('Setup is already done: sign in with the admin user created then', 'setup_done');
    const em = this.deps.orm.em.fork();
    const now = new Date();
    const user = em.create(User, { username, passwordHash: await hashPassword(password), createdAt: now, updatedAt: now });
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict('Setup is already done: sign in with the admin user created then', 'setup_done');
      throw error;
    }
    this.userExists = true;
    this.deps.logger.info({ username }, 'admin user created');
    return this.startSession(user, replacedSessionId);
  }

  async login(username: string, password: string, clientAddress: string, replacedSessionId: string | undefined): Promise<SignedIn> {
    const keys = throttleKeys(username, clientAddress);
    const wait = await this.throttle.begin(keys, Date.now());
    if (wait > 0) {
      this.deps.logger.warn({ retryAfterSeconds: wait }, 'sign-in throttled');
      throw rateLimited(`Too many failed sign-ins: try again in ${wait} s`, wait);
    }
    let user: User | null;
    let verified: boolean;
    try {
      user = await this.deps.orm.em.fork().findOne(User, { username });
      // An unknown user costs a verification too, so the answer's timing does not tell them apart.
      verified = await verifyPassword(password, user?.passwordHash ?? UNUSABLE_PASSWORD_HASH);
    } catch (error) {
      await this.throttle.fail(keys, Date.now());
      throw error;
    }
    if (!user || !verified) {
      await this.throttle.fail(keys, Date.now());
      this.deps.logger.info('sign-in refused: wrong username or password');
      throw new AppError('unauthorized', WRONG_CREDENTIALS);
    }
    await this.throttle.succeed(keys, keys[0], Date.now());
    this.deps.logger.info({ username: user.username }, 'signed in');
    return this.startSession(user, replacedSessionId);
  }

  async logout(sessionId: string | undefined): Promise<void> {
    if (sessionId && SESSION_ID.test(sessionId)) await this.deps.orm.em.fork().nativeDelete(Session, { idHash: sha256Hex(sessionId) });
  }

  /** The session a cookie names; an expired one is deleted. */
  async resolveSession(sessionId: string): Promise<SessionLookup> {
    if (!SESSION_ID.test(sessionId)) return { status: 'unknown' };
    const em = this.deps.orm.em.fork();
    const idHash = sha256Hex(sessionId);
    const session = await em.findOne(Session, { idHash });
    if (!session) return { status: 'unknown' };
    if (session.expiresAt.getTime() <= Date.now()) {
      await em.nativeDelete(Session, { idHash });
      return { status: 'expired' };
    }
    const user = await em.findOne(User, { id: session.userId });
    if (!user) return { status: 'unknown' };
    return { status: 'valid', session: { username: user.username, csrfToken: session.csrfToken, expiresAt: session.expiresAt } };
  }

  apiKey(): { apiKey: string; source: ApiKeySource } {
    return { apiKey: this.deps.apiKeys.current, source: this.deps.apiKeys.source };
  }

  /** A new API key, in force at once for every request of this process; 409 when ARRGO_API_KEY sets it. */
  regenerateApiKey(by: 'session' | 'apiKey'): { apiKey: string } {
    if (this.deps.apiKeys.source === 'env') {
      throw conflict('The API key is set by ARRGO_API_KEY: change it there and restart arrgo (regenerating works for the key arrgo keeps in DATA_DIR/api-key)', 'api_key_from_env');
    }
    const apiKey = this.deps.apiKeys.regenerate();
    this.deps.logger.info({ by }, 'API key regenerated');
    return { apiKey };
  }

  /**
   * A new session id at every sign-in (a session id planted before sign-in is never promoted);
   * the replaced one and every expired session are deleted.
   */
  private async startSession(user: User, replacedSessionId: string | undefined): Promise<SignedIn> {
    const em = this.deps.orm.em.fork();
    const now = new Date();
    const sessionId = randomToken(32);
    const csrfToken = randomToken(32);
    const expiresAt = new Date(now.getTime() + this.deps.sessionTtlHours * 3_600_000);
    await em.nativeDelete(Session, { expiresAt: { $lte: now } });
    if (replacedSessionId && SESSION_ID.test(replacedSessionId)) await em.nativeDelete(Session, { idHash: sha256Hex(replacedSessionId) });
    em.create(Session, { idHash: sha256Hex(sessionId), userId: user.id, csrfToken, createdAt: now, expiresAt });
    await em.flush();
    return { username: user.username, sessionId, csrfToken, expiresAt };
  }
}
