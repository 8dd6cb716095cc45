import path from 'node:path';
import express, { type Router } from 'express';

/**
 * Swagger UI served from the swagger-ui-dist package (no CDN). The page loads the OpenAPI document
 * without a key (it is public); "Authorize" takes the key for trying requests.
 */
export function docsRouter(): Router {
  const router = express.Router();
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/', (req, res) => {
    // The page's assets are relative: without the trailing slash they would resolve outside /docs/.
    const [pathname, query] = splitQuery(req.originalUrl);
    if (!pathname.endsWith('/')) return res.redirect(301, `${req.baseUrl}/${query}`);
    res.type('html').send(DOCS_PAGE);
  });
  router.use('/assets', express.static(assets, { index: false, maxAge: '1h' }));
  return router;
}

/** A request URL's path and its query string (with its `?`, or ''). */
export function splitQuery(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>arrgo API</title>
<link rel="stylesheet" href="assets/swagger-ui.css">
<style>body{margin:0} #key{padding:8px 16px;font-family:sans-serif;background:#1b1b1b;color:#eee}</style>
</head>
<body>
<div id="key">To try requests, click <b>Authorize</b> and paste the API key (<code>X-Api-Key</code>): <code>ARRGO_API_KEY</code>, or the key arrgo generated into <code>DATA_DIR/api-key</code> on first start.</div>
<div id="swagger-ui"></div>
<script src="assets/swagger-ui-bundle.js"></script>
<script src="assets/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: '../api/v1/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
</script>
</body>
</html>`;
