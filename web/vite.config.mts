import path from 'node:path';
import { defineConfig } from 'vite';

// The console: built into dist/web, served by arrgo at <URL base>/ (src/api serves it and injects
// <base href> and <meta name="arrgo-base">, so the build uses relative asset paths).
// `npx vite --config web/vite.config.mts` serves it for development and forwards the API to the
// arrgo at ARRGO_DEV_URL (default http://127.0.0.1:7979).
const arrgo = process.env.ARRGO_DEV_URL ?? 'http://127.0.0.1:7979';

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  base: command === 'build' ? './' : '/',
  // React's automatic JSX runtime through Vite's own transform (no Babel: see docs/console.md).
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: path.resolve(import.meta.dirname, '..', 'dist', 'web'),
    emptyOutDir: true,
    reportCompressedSize: false,
    // The main chunk holds React, the component library and the dashboard (docs/console.md has its
    // gzipped size); the other pages are chunks of their own.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      // The component library marks its modules "use client" (for React Server Components); a
      // client-only bundle has nothing to preserve.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/api': arrgo, '/docs': arrgo } },
}));
