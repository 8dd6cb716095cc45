import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONSOLE_CSP } from '../../src/api/http/console';
import { startArrgo, type Harness } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/receiver';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>arrgo</title>
    <script type="module" crossorigin src="./assets/index-4f2a9c1e.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;
const SCRIPT = 'console.log("arrgo console");\n';
const INJECTED = '<base href="/arrgo/"><meta name="arrgo-base" content="/arrgo">';

/** A web build as Vite emits it (base './'): index.html, hashed assets, a file of public/. */
function fakeWebBuild(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-web-'));
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'index.html'), INDEX);
  fs.writeFileSync(path.join(root, 'assets', 'index-4f2a9c1e.js'), SCRIPT);
  fs.writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}

describe('everything under URL_BASE=/arrgo, the console served from the web build', () => {
  let h: Harness;
  let webRoot: string;
  let receiver: Receiver;
  const at = (p: string, init?: RequestInit) => fetch(`${h.baseUrl}${p}`, { redirect: 'manual', ...init });
  const withKey = () => ({ headers: { 'X-Api-Key': h.apiKey } });

  beforeAll(async () => {
    webRoot = fakeWebBuild();
    receiver = await startReceiver();
    h = await startArrgo({ webRoot, env: { URL_BASE: '/arrgo' } });
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('serves the API, its document and /metrics under the base, and nothing outside it but a redirect of /', async () => {
    expect((await at('/arrgo/api/v1/instances', withKey())).status).toBe(200);
    expect((await at('/arrgo/api/v1/health')).status).toBe(200);
    const doc = (await (await at('/arrgo/api/v1/openapi.json')).json()) as { servers: unknown };
    expect(doc.servers).toEqual([{ url: '/arrgo' }]);
    const metrics = await at('/arrgo/metrics', withKey());
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('route="/api/v1/instances"');

    for (const outside of ['/api/v1/instances', '/api/v1/health', '/docs/', '/metrics', '/rollouts/12', '/assets/index-4f2a9c1e.js']) {
      const res = await at(outside, withKey());
      expect({ outside, status: res.status, body: await res.json() }).toEqual({ outside, status: 404, body: { error: 'Route not found' } });
    }
    const root = await at('/');
    expect([root.status, root.headers.get('location')]).toEqual([302, '/arrgo/']);
    const bare = await at('/arrgo?x=1');
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/arrgo/?x=1']);
  });

  it('serves the docs page under the base: its redirect, assets and the document it loads', async () => {
    const bare = await at('/arrgo/docs?tab=1');
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/arrgo/docs/?tab=1']);
    const page = await fetch(`${h.baseUrl}/arrgo/docs`);
    expect([page.status, page.url]).toEqual([200, `${h.baseUrl}/arrgo/docs/`]);
    const html = await page.text();
    for (const ref of [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1])) {
      expect({ ref, status: (await fetch(new URL(ref, page.url))).status }).toEqual({ ref, status: 200 });
    }
    const documentUrl = new URL(/url: '([^']+)'/.exec(html)![1], page.url);
    expect(documentUrl.pathname).toBe('/arrgo/api/v1/openapi.json');
    expect((await fetch(documentUrl)).status).toBe(200);
  });

  it('answers index.html with the base injected for the console and its deep links, with CSP and no-cache', async () => {
    for (const route of ['/arrgo/', '/arrgo/rollouts/12', '/arrgo/settings/api-key', '/arrgo/index.html']) {
      const res = await at(route);
      const html = await res.text();
      expect({ route, status: res.status }).toEqual({ route, status: 200 });
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(html).toBe(INDEX.replace('<head>', `<head>${INJECTED}`));
    }
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/https?:|\*/);
    // The page's relative script resolves under the base from a deep link.
    expect(new URL('./assets/index-4f2a9c1e.js', `${h.baseUrl}/arrgo/`).pathname).toBe('/arrgo/assets/index-4f2a9c1e.js');
  });

  it('serves hashed assets with immutable caching, other build files with revalidation; a missing asset is 404', async () => {
    const asset = await at('/arrgo/assets/index-4f2a9c1e.js');
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe(SCRIPT);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    const icon = await at('/arrgo/favicon.svg');
    expect([icon.status, icon.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    const missing = await at('/arrgo/assets/index-00000000.js');
    expect([missing.status, await missing.json()]).toEqual([404, { error: 'Asset not found' }]);
  });

  it('keeps API, docs and metrics paths out of the console fallback', async () => {
    for (const route of ['/arrgo/api/v1/no-such-route', '/arrgo/api/v2/instances', '/arrgo/docs/nothing-here']) {
      const res = await at(route, withKey());
      expect({ route, status: res.status, body: await res.json() }).toEqual({ route, status: 404, body: { error: 'Route not found' } });
    }
    expect((await at('/arrgo/metrics')).status).toBe(401);
  });

  it('scopes the session cookie to the base; X-Forwarded-Proto is ignored without TRUST_PROXY', async () => {
    const setup = await h.request('POST', '/auth/setup', { username: 'admin', password: 'a long enough password' }, { auth: false, headers: { 'X-Forwarded-Proto': 'https' } });
    expect(setup.status).toBe(201);
    const cookie = setup.headers.getSetCookie().find((c) => c.startsWith('arrgo_session='))!;
    expect(cookie).toMatch(/; Path=\/arrgo\/;/);
    expect(cookie).not.toMatch(/; Secure/i);
    const sessionId = /^arrgo_session=([^;]+)/.exec(cookie)![1];
    const status = await at('/arrgo/api/v1/auth/status', { headers: { Cookie: `arrgo_session=${sessionId}` } });
    expect(((await status.json()) as { username: string }).username).toBe('admin');
  });

  it('builds notification links with the base', async () => {
    const channel = await h.post('/notifications/channels', { name: 'base-links', kind: 'webhook', url: receiver.url, secret: 'whsec-0123456789abcdef', events: ['sync.failed'] });
    expect(channel.status).toBe(201);
    const sent = await h.post(`/notifications/channels/${channel.body.id}/test?wait=true`);
    expect([sent.status, sent.body.status]).toEqual([200, 'delivered']);
    expect(receiver.requests.map((r) => r.body.event.links.api)).toEqual([`/arrgo/api/v1/notifications/channels/${channel.body.id}`]);
  });

  it('answers a page saying the console is not built when the web build is missing', async () => {
    fs.rmSync(webRoot, { recursive: true, force: true });
    for (const route of ['/arrgo/', '/arrgo/rollouts/12']) {
      const res = await at(route);
      const html = await res.text();
      expect({ route, status: res.status }).toEqual({ route, status: 200 });
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(html).toContain('<h1>The arrgo console is not built</h1>');
      expect(html).toContain('<code>npm run build</code>');
      expect(html).toContain('href="/arrgo/docs/"');
    }
    expect((await at('/arrgo/assets/index-4f2a9c1e.js')).status).toBe(404);
    expect((await at('/arrgo/api/v1/health')).status).toBe(200);
  });
});

describe('the console at the root (URL_BASE unset)', () => {
  let h: Harness;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = fakeWebBuild();
    h = await startArrgo({ webRoot });
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('answers the console at / (no longer a redirect to the docs) and its deep links, beside the API and the docs page', async () => {
    for (const route of ['/', '/rollouts/12']) {
      const res = await fetch(`${h.baseUrl}${route}`, { redirect: 'manual' });
      expect({ route, status: res.status }).toEqual({ route, status: 200 });
      expect(await res.text()).toBe(INDEX.replace('<head>', '<head><base href="/"><meta name="arrgo-base" content="">'));
    }
    expect((await fetch(`${h.baseUrl}/assets/index-4f2a9c1e.js`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${h.baseUrl}/docs/`)).status).toBe(200);
    expect((await h.get('/health')).status).toBe(200);
    const setup = await h.request('POST', '/auth/setup', { username: 'admin', password: 'a long enough password' }, { auth: false });
    expect(setup.headers.getSetCookie()[0]).toMatch(/; Path=\/;/);
  });
});
