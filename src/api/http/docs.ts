import path from 'node:path';
import express, { type Router } from 'express';

/** Swagger UI served from the swagger-ui-dist package (no CDN); the key is asked for in the page. */
export function docsRouter(): Router {
  const router = express.Router();
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/', (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  router.use('/assets', express.static(assets, { index: false, maxAge: '1h' }));
  return router;
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>arrgo API</title>
<link rel="stylesheet" href="assets/swagger-ui.css">
<style>body{margin:0} #key{padding:8px 16px;font-family:sans-serif;background:#1b1b1b;color:#eee} #key input{width:24em}</style>
</head>
<body>
<div id="key">API key: <input id="apikey" type="password" placeholder="X-Api-Key"> <button id="load">Load</button></div>
<div id="swagger-ui"></div>
<script src="assets/swagger-ui-bundle.js"></script>
<script src="assets/swagger-ui-standalone-preset.js"></script>
<script>
const input = document.getElementById('apikey');
input.value = sessionStorage.getItem('arrgo-api-key') || '';
function load() {
  sessionStorage.setItem('arrgo-api-key', input.value);
  window.ui = SwaggerUIBundle({
    url: '../api/v1/openapi.json',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    requestInterceptor: (req) => { if (input.value) req.headers['X-Api-Key'] = input.value; return req; },
  });
}
document.getElementById('load').onclick = load;
load();
</script>
</body>
</html>`;
