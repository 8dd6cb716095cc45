import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { AppError } from '../../errors';
import { splitQuery } from './docs';

/**
 * The console's Content-Security-Policy: its own origin only. Inline styles are allowed (component
 * libraries position popovers with style attributes); scripts are never inline.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The web build (Vite's output): `<repo>/dist/web`, from src/api/http and from dist/api/http alike. */
export const DEFAULT_WEB_ROOT = path.resolve(__dirname, '..', '..', '..', 'dist', 'web');

// Paths under the base that belong to the API, the docs page and the metrics, never to the console.
const NOT_CONSOLE = /^\/(api|docs|metrics)(\/|$)/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface ConsoleOptions {
  webRoot: string;
  urlBase: string;
}

/**
 * Serves the web console at `<base>/`: hashed assets with long caching, other files of the build
 * with revalidation, and index.html (the base injected) for every other GET, so a reload on a deep
 * link such as /rollouts/12 works. Without a build, a page says how to build it.
 */
export function consoleRouter({ webRoot, urlBase }: ConsoleOptions): Router {
  const router = express.Router();
  const index = new IndexPage(path.join(webRoot, 'index.html'), urlBase);
  const sendIndex = async (req: Request, res: Response) => {
    const html = await index.read();
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cache-Control', html === null ? 'no-store' : 'no-cache');
    res.type('html').send(html ?? notBuiltPage(urlBase));
  };
  router.get('/', (req, res, next) => {
    // `<base>` without its slash: the cookie's path and relative URLs need `<base>/`.
    const [pathname, query] = splitQuery(req.originalUrl);
    if (urlBase && pathname === urlBase) return res.redirect(301, `${urlBase}/${query}`);
    sendIndex(req, res).catch(next);
  });
  router.get('/index.html', (req, res, next) => void sendIndex(req, res).catch(next));
  router.use('/assets', express.static(path.join(webRoot, 'assets'), { index: false, redirect: false, setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE) }));
  router.use('/assets', (_req: Request, _res: Response, next: NextFunction) => next(new AppError('not_found', 'Asset not found')));
  const serveRootFile = express.static(webRoot, { index: false, redirect: false, cacheControl: false, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  router.use((req, res, next) => (NOT_CONSOLE.test(req.path) ? next() : serveRootFile(req, res, next)));
  router.get(/.*/, (req, res, next) => {
    if (NOT_CONSOLE.test(req.path)) return next();
    sendIndex(req, res).catch(next);
  });
  return router;
}

/** index.html with `<base href>` and the arrgo-base meta tag injected, reread when the build changes. */
class IndexPage {
  private cached: { mtimeMs: number; size: number; html: string } | null = null;

  constructor(
    private readonly file: string,
    private readonly urlBase: string,
  ) {}

  /** null when the console is not built. */
  async read(): Promise<string | null> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(this.file);
    } catch {
      return null;
    }
    if (this.cached?.mtimeMs !== stat.mtimeMs || this.cached.size !== stat.size) {
      this.cached = { mtimeMs: stat.mtimeMs, size: stat.size, html: injectBase(await fs.promises.readFile(this.file, 'utf8'), this.urlBase) };
    }
    return this.cached.html;
  }
}

export function injectBase(html: string, urlBase: string): string {
  // URL_BASE is validated to letters, digits and ._~- segments: nothing to escape.
  const tags = `<base href="${urlBase}/"><meta name="arrgo-base" content="${urlBase}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return tags + html;
  const at = head.index + head[0].length;
  return html.slice(0, at) + tags + html.slice(at);
}

function notBuiltPage(urlBase: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>arrgo: console not built</title>
</head>
<body>
<h1>The arrgo console is not built</h1>
<p>This arrgo serves its web console from <code>dist/web</code>, which is missing. Build it with <code>npm run build</code>
(<code>npm start</code> builds it when it is missing or older than its sources), then reload this page.</p>
<p>The API works without it: <a href="${urlBase}/docs/">API docs</a>, <a href="${urlBase}/api/v1/health">health</a>.</p>
</body>
</html>`;
}
