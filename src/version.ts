// ../package.json is the repository's, or in the CLI package (`npm run build:cli`) that package's own, which carries the same version.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require('../package.json') as { version: string };

export const APP_VERSION: string = pkg.version;
