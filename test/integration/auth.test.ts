import fs from 'node:fs';
import path from 'node:path';
import { Session } from '../../src/persistence/entities';
import { sha256Hex } from '../../src/platform/crypto';
import { startArrgo, type Harness, type HttpResult } from '../helpers/harness';

const PASSWORD = 'correct horse battery staple';

interface Call {
  cookie?: string;
  csrf?: string;
  apiKey?: string;
  /** X-Forwarded-For (honoured with TRUST_PROXY): the client address the throttle counts. */
  from?: string;
  proto?: 'https';
  body?: unknown;
}

/** A request as a browser (or a script) sends it: no API key unless given. */
function call(h: Harness, method: string, apiPath: string, c: Call = {}): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (c.cookie !== undefined) headers.Cookie = `arrgo_session=${c.cookie}`;
  if (c.csrf !== undefined) headers['X-Arrgo-Csrf'] = c.csrf;
  if (c.apiKey !== undefined) headers['X-Api-Key'] = c.apiKey;
  if (c.from !== undefined) headers['X-Forwarded-For'] = c.from;
  if (c.proto !== undefined) headers['X-Forwarded-Proto'] = c.proto;
  return h.request(method, apiPath, c.body, { auth: false, headers });
}

interface SetCookie {
  value: string;
  attributes: Map<string, string>;
}

function sessionCookie(res: HttpResult): SetCookie {
  const headers = res.headers.getSetCookie().filter((c) => c.startsWith('arrgo_session='));
  expect(headers.length).toBeLessThanOrEqual(1);
  const header = headers[0];
  if (!header) throw new Error(`no session cookie in ${res.status} ${JSON.stringify(res.headers.getSetCookie())}`);
  const [pair, ...attributes] = header.split(';').map((p) => p.trim());
  return {
    value: pair.slice('arrgo_session='.length),
    attributes: new Map(attributes.map((a) => [a.split('=')[0].toLowerCase(), a.includes('=') ? a.slice(a.indexOf('=') + 1) : ''])),
  };
}

async function login(h: Harness, from: string, extra: Call = {}): Promise<{ res: HttpResult; sessionId: string; csrfToken: string }> {
  const res = await call(h, 'POST', '/auth/login', { ...extra, from, body: { username: 'admin', password: PASSWORD } });
  expect(res.status).toBe(200);
  const sessionId = sessionCookie(res).value;
  const status = await call(h, 'GET', '/auth/status', { cookie: sessionId });
  return { res, sessionId, csrfToken: status.body.csrfToken };
}

describe('console sign-in (TRUST_PROXY=true, SESSION_TTL_HOURS=2, API key from the environment)', () => {
  let h: Harness;
  /** Every response body and the session ids and CSRF tokens handed out, to check none leaks. */
  const bodies: string[] = [];
  const sessionIds: string[] = [];
  const csrfTokens: string[] = [];
  const track = (res: HttpResult) => {
    bodies.push(res.text);
    // Sign-in answers in place: no redirect whose URL could carry anything.
    expect(res.headers.get('location')).toBeNull();
    return res;
  };

  beforeAll(async () => {
    h = await startArrgo({ env: { TRUST_PROXY: 'true', SESSION_TTL_HOURS: '2' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates the admin once at setup, signed in at once; a second setup is 409', async () => {
    const before = await call(h, 'GET', '/auth/status');
    expect(before.body).toEqual({ setupRequired: true, authenticated: false, username: null, method: null, csrfToken: null, sessionExpiresAt: null });
    expect(before.headers.get('cache-control')).toBe('no-store');

    const short = await call(h, 'POST', '/auth/setup', { from: '10.0.1.1', body: { username: 'admin', password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('Invalid request: body.password must be at least 8 characters');
    expect((await call(h, 'POST', '/auth/setup', { body: { username: 'ad\u0007min', password: PASSWORD } })).body.error).toBe('Invalid request: body.username must not contain control characters');
    expect((await call(h, 'POST', '/auth/setup', { body: { username: 'a'.repeat(65), password: PASSWORD } })).body.error).toBe('Invalid request: body.username must be at most 64 characters');

    const setup = track(await call(h, 'POST', '/auth/setup', { from: '10.0.1.1', body: { username: 'admin', password: PASSWORD } }));
    expect(setup.status).toBe(201);
    expect(setup.body).toEqual({ username: 'admin' });
    const cookie = sessionCookie(setup);
    sessionIds.push(cookie.value);
    const status = track(await call(h, 'GET', '/auth/status', { cookie: cookie.value }));
    expect(status.body).toEqual({ setupRequired: false, authenticated: true, username: 'admin', method: 'session', csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), sessionExpiresAt: expect.any(String) });
    csrfTokens.push(status.body.csrfToken);

    const again = await call(h, 'POST', '/auth/setup', { body: { username: 'mallory', password: PASSWORD } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'Setup is already done: sign in with the admin user created then', code: 'setup_done' });
    expect((await call(h, 'POST', '/auth/setup', { apiKey: h.apiKey, body: { username: 'admin', password: PASSWORD } })).status).toBe(409);
    expect((await call(h, 'GET', '/auth/status')).body.setupRequired).toBe(false);
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, Path=/, expiring with the session; Secure only over HTTPS', async () => {
    const plain = await login(h, '10.0.2.1');
    track(plain.res);
    track(await call(h, 'GET', '/auth/status', { cookie: plain.sessionId }));
    sessionIds.push(plain.sessionId);
    csrfTokens.push(plain.csrfToken);
    const cookie = sessionCookie(plain.res);
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.get('samesite')).toBe('Strict');
    expect(cookie.attributes.get('path')).toBe('/');
    expect(cookie.attributes.has('secure')).toBe(false);
    const expiresAt = Date.parse(plain.res.body.sessionExpiresAt);
    expect(plain.res.body.username).toBe('admin');
    expect(Math.abs(expiresAt - (Date.now() + 2 * 3_600_000))).toBeLessThan(60_000);
    expect(Date.parse(cookie.attributes.get('expires')!)).toBe(Math.floor(expiresAt / 1000) * 1000);

    // Behind a TLS-terminating proxy (TRUST_PROXY): X-Forwarded-Proto: https makes the cookie Secure.
    const tls = await login(h, '10.0.2.2', { proto: 'https' });
    sessionIds.push(tls.sessionId);
    csrfTokens.push(tls.csrfToken);
    expect(sessionCookie(tls.res).attributes.has('secure')).toBe(true);
  });

  it('answers the same 401 for a wrong password and an unknown user', async () => {
    const wrong = await call(h, 'POST', '/auth/login', { from: '10.0.3.1', body: { username: 'admin', password: 'not the password' } });
    const unknown = await call(h, 'POST', '/auth/login', { from: '10.0.3.1', body: { username: 'nobody', password: PASSWORD } });
    expect([wrong.status, wrong.body]).toEqual([401, { error: 'Wrong username or password' }]);
    expect([unknown.status, unknown.body]).toEqual([401, { error: 'Wrong username or password' }]);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('gives a new session id at every sign-in: a session cookie sent along is not reused and is invalid afterwards', async () => {
    const first = await login(h, '10.0.4.1');
    const planted = 'A'.repeat(43);
    const second = await login(h, '10.0.4.1', { cookie: first.sessionId });
    const third = await login(h, '10.0.4.1', { cookie: planted });
    sessionIds.push(first.sessionId, second.sessionId, third.sessionId);
    csrfTokens.push(first.csrfToken, second.csrfToken, third.csrfToken);
    expect(new Set([first.sessionId, second.sessionId, third.sessionId, planted]).size).toBe(4);
    const old = await call(h, 'GET', '/instances', { cookie: first.sessionId });
    expect([old.status, old.body]).toEqual([401, { error: 'Session not valid (signed out or replaced): sign in again' }]);
    expect((await call(h, 'GET', '/instances', { cookie: planted })).status).toBe(401);
    expect((await call(h, 'GET', '/instances', { cookie: second.sessionId })).status).toBe(200);
    // The replaced session's row is gone; only hashes are stored.
    const rows = await h.service.orm.em.fork().find(Session, {});
    expect(rows.map((r) => r.idHash)).not.toContain(sha256Hex(first.sessionId));
    expect(rows.map((r) => r.idHash)).toContain(sha256Hex(second.sessionId));
    expect(rows.some((r) => sessionIds.includes(r.idHash))).toBe(false);
  });

  it('refuses an expired session with 401, deletes it and clears the cookie', async () => {
    const { sessionId } = await login(h, '10.0.5.1');
    sessionIds.push(sessionId);
    await h.service.orm.em.fork().nativeUpdate(Session, { idHash: sha256Hex(sessionId) }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await call(h, 'GET', '/instances', { cookie: sessionId });
    expect([res.status, res.body]).toEqual([401, { error: 'Session expired: sign in again' }]);
    const cleared = sessionCookie(res);
    expect(cleared.value).toBe('');
    expect(Date.parse(cleared.attributes.get('expires')!)).toBeLessThan(Date.now());
    expect(await h.service.orm.em.fork().count(Session, { idHash: sha256Hex(sessionId) })).toBe(0);
    expect((await call(h, 'GET', '/auth/status', { cookie: sessionId })).body).toMatchObject({ authenticated: false, csrfToken: null });
  });

  it('needs X-Arrgo-Csrf for cookie-authenticated writes, never for reads or API-key requests', async () => {
    const { sessionId, csrfToken } = await login(h, '10.0.6.1');
    sessionIds.push(sessionId);
    csrfTokens.push(csrfToken);
    const body = { section_key: 'auth:csrf:one', mode: 'advanced' };
    const without = await call(h, 'PATCH', '/ui-preferences', { cookie: sessionId, body });
    expect(without.status).toBe(403);
    expect(without.body.error).toBe('Missing or wrong X-Arrgo-Csrf header: a write signed in with the session cookie must send the csrfToken of GET /api/v1/auth/status in it');
    expect((await call(h, 'PATCH', '/ui-preferences', { cookie: sessionId, csrf: 'x'.repeat(43), body })).status).toBe(403);
    expect((await h.get('/ui-preferences')).body.items).toEqual([]);

    const withToken = track(await call(h, 'PATCH', '/ui-preferences', { cookie: sessionId, csrf: csrfToken, body }));
    expect([withToken.status, withToken.body.mode]).toEqual([200, 'advanced']);
    expect((await call(h, 'GET', '/ui-preferences', { cookie: sessionId })).body.items.map((i: { section_key: string }) => i.section_key)).toEqual(['auth:csrf:one']);

    // The API key works exactly as before: no CSRF header, no cookie.
    const byKey = await call(h, 'PATCH', '/ui-preferences', { apiKey: h.apiKey, body: { section_key: 'auth:csrf:two', mode: 'basic' } });
    expect([byKey.status, byKey.body.mode]).toEqual([200, 'basic']);
    expect((await call(h, 'GET', '/auth/status', { apiKey: h.apiKey })).body).toEqual({ setupRequired: false, authenticated: true, username: null, method: 'apiKey', csrfToken: null, sessionExpiresAt: null });
    expect((await call(h, 'GET', '/instances', { apiKey: 'wrong-key-0123456789' })).body).toEqual({ error: 'Invalid API key' });
    expect((await call(h, 'GET', '/instances')).body).toEqual({ error: 'API key required: send it in the X-Api-Key header' });
  });

  it('signs out: the session is deleted, the cookie cleared, and the old cookie refused', async () => {
    const { sessionId, csrfToken } = await login(h, '10.0.7.1');
    sessionIds.push(sessionId);
    csrfTokens.push(csrfToken);
    expect((await call(h, 'POST', '/auth/logout', { cookie: sessionId })).status).toBe(403);
    const out = await call(h, 'POST', '/auth/logout', { cookie: sessionId, csrf: csrfToken });
    expect(out.status).toBe(204);
    expect(sessionCookie(out).value).toBe('');
    expect((await call(h, 'GET', '/instances', { cookie: sessionId })).status).toBe(401);
    expect((await call(h, 'GET', '/auth/status', { cookie: sessionId })).body.authenticated).toBe(false);
  });

  it('shows the API key to a signed-in user; regenerating an environment key is 409', async () => {
    const { sessionId, csrfToken } = await login(h, '10.0.8.1');
    sessionIds.push(sessionId);
    csrfTokens.push(csrfToken);
    const shown = await call(h, 'GET', '/auth/api-key', { cookie: sessionId });
    expect(shown.body).toEqual({ apiKey: h.apiKey, source: 'env' });
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect((await call(h, 'GET', '/auth/api-key')).status).toBe(401);
    const refused = await call(h, 'POST', '/auth/api-key/regenerate', { cookie: sessionId, csrf: csrfToken });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('The API key is set by ARRGO_API_KEY: change it there and restart arrgo (regenerating works for the key arrgo keeps in DATA_DIR/api-key)');
    expect((await h.get('/instances')).status).toBe(200);
  });

  it('throttles failed sign-ins per client address (429 with Retry-After), whatever the username', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await call(h, 'POST', '/auth/login', { from: '10.0.9.9', body: { username: `guess-${i}`, password: 'wrong password' } })).status).toBe(401);
    }
    const throttled = await call(h, 'POST', '/auth/login', { from: '10.0.9.9', body: { username: 'someone-else', password: 'wrong password' } });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({ error: expect.stringMatching(/^Too many failed sign-ins: try again in (59|60) s$/) });
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    // Even the right password is refused from that address meanwhile, and no session is made.
    const right = await call(h, 'POST', '/auth/login', { from: '10.0.9.9', body: { username: 'admin', password: PASSWORD } });
    expect(right.status).toBe(429);
    expect(right.headers.getSetCookie()).toEqual([]);
    // Another address is not affected.
    const other = await login(h, '10.0.9.10');
    sessionIds.push(other.sessionId);
    csrfTokens.push(other.csrfToken);
  });

  it('throttles failed sign-ins per username (429 with Retry-After), whatever the address', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await call(h, 'POST', '/auth/login', { from: `10.1.0.${i}`, body: { username: 'admin', password: `wrong password ${i}` } })).status).toBe(401);
    }
    // A differently cased spelling counts for the same user.
    const throttled = await call(h, 'POST', '/auth/login', { from: '10.1.0.99', body: { username: 'ADMIN', password: PASSWORD } });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    const right = await call(h, 'POST', '/auth/login', { from: '10.1.0.100', body: { username: 'admin', password: PASSWORD } });
    expect(right.status).toBe(429);
    expect(right.body.error).toMatch(/^Too many failed sign-ins: try again in \d+ s$/);
  });

  it('puts no session id in a URL or a response body, and no password, session id, CSRF token or API key in a log line', async () => {
    expect(sessionIds.length).toBeGreaterThan(8);
    for (const body of bodies) for (const id of sessionIds) expect({ body, leaks: body.includes(id), id }).toEqual({ body, leaks: false, id });
    const logs = h.logs.join('\n');
    expect(logs).toContain('"msg":"signed in"');
    for (const secret of [PASSWORD, 'wrong password', h.apiKey, ...sessionIds, ...csrfTokens]) expect({ secret, logged: logs.includes(secret) }).toEqual({ secret, logged: false });
  });
});

describe('API key regeneration (key kept in DATA_DIR/api-key)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startArrgo({ env: { ARRGO_API_KEY: '' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('replaces the key at once for every request, rewrites the file and keeps the new key out of the logs', async () => {
    const file = path.join(h.dataDir, 'api-key');
    const oldKey = fs.readFileSync(file, 'utf8').trim();
    expect((await call(h, 'GET', '/auth/api-key', { apiKey: oldKey })).body).toEqual({ apiKey: oldKey, source: 'file' });
    expect((await call(h, 'POST', '/auth/setup', { body: { username: 'admin', password: PASSWORD } })).status).toBe(201);
    const { sessionId, csrfToken } = await login(h, '127.0.0.1');

    const regenerated = await call(h, 'POST', '/auth/api-key/regenerate', { cookie: sessionId, csrf: csrfToken });
    expect(regenerated.status).toBe(200);
    const newKey: string = regenerated.body.apiKey;
    expect(newKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(newKey).not.toBe(oldKey);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${newKey}\n`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const old = await call(h, 'GET', '/instances', { apiKey: oldKey });
    expect([old.status, old.body]).toEqual([401, { error: 'Invalid API key' }]);
    expect((await call(h, 'GET', '/instances', { apiKey: newKey })).status).toBe(200);
    expect((await fetch(`${h.baseUrl}/metrics`, { headers: { 'X-Api-Key': newKey } })).status).toBe(200);
    expect((await fetch(`${h.baseUrl}/metrics`, { headers: { 'X-Api-Key': oldKey } })).status).toBe(401);
    expect((await call(h, 'GET', '/auth/api-key', { cookie: sessionId })).body).toEqual({ apiKey: newKey, source: 'file' });
    expect(h.service.apiKey).toBe(newKey);

    // With the key itself (no CSRF header needed), and again effective at once.
    const byKey = await call(h, 'POST', '/auth/api-key/regenerate', { apiKey: newKey });
    expect(byKey.status).toBe(200);
    expect((await call(h, 'GET', '/instances', { apiKey: newKey })).status).toBe(401);
    expect((await call(h, 'GET', '/instances', { apiKey: byKey.body.apiKey })).status).toBe(200);

    const logs = h.logs.filter((line) => !line.startsWith('arrgo generated an API key'));
    expect(logs.join('\n')).toContain('API key regenerated');
    for (const secret of [oldKey, newKey, byKey.body.apiKey, sessionId, csrfToken, PASSWORD]) expect({ secret, logged: logs.join('\n').includes(secret) }).toEqual({ secret, logged: false });
  });
});
