import fs from 'node:fs';
import path from 'node:path';

interface LockPackage {
  optionalDependencies?: Record<string, string>;
}

/**
 * npm records an optional dependency in the lock file only when the platform that wrote it could
 * resolve it; a lock written on one platform then makes `npm install` rewrite it on the others and
 * `npm ci` refuse it. Every optional dependency must have its own entry, whatever the platform.
 */
describe('package-lock.json', () => {
  const lock = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package-lock.json'), 'utf8')) as {
    packages: Record<string, LockPackage>;
  };

  it('locks every optional dependency of every package (all platforms), so a fresh install leaves it unchanged', () => {
    const missing: string[] = [];
    for (const [location, pkg] of Object.entries(lock.packages)) {
      for (const name of Object.keys(pkg.optionalDependencies ?? {})) {
        const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
        if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) missing.push(`${location || '(root)'} -> ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('locks the @swc/core binaries of macOS, Windows and Linux', () => {
    for (const binary of ['darwin-arm64', 'darwin-x64', 'linux-x64-gnu', 'linux-arm64-gnu', 'win32-x64-msvc', 'win32-arm64-msvc']) {
      expect(lock.packages[`node_modules/@swc/core-${binary}`]).toBeDefined();
    }
  });
});
