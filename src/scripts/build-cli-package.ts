import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

/**
 * `npm run build:cli`: the `arrgo` command line as a package of its own, dist/cli-package/, that
 * `npm pack` turns into `arrgo-cli-<version>.tgz` (docs/cli.md#installing-the-cli-on-its-own).
 *
 * Its modules are the compiled files that dist/cli/main.js requires, followed require by require
 * (the layer rules keep them to src/cli, src/client and src/version.ts). Its dependencies are the
 * npm packages those files require, at the ranges of arrgo's package.json, and its
 * npm-shrinkwrap.json pins them and theirs to the versions of package-lock.json, the ones arrgo is
 * tested with. No bundler: tsc's output is copied as it is.
 */
const DIST = path.resolve(__dirname, '..');
const ROOT = path.resolve(DIST, '..');
const OUT = path.join(DIST, 'cli-package');
const ENTRY = path.join(DIST, 'cli', 'main.js');
const BIN = 'dist/cli/main.js';
// The fleet file's JSON Schema ships with the CLI, for editors (docs/cli.md#editor-support-the-json-schema).
const SHIPPED_FILES = ['schemas/arrgo-fleet.schema.json'];
const ROOT_MANIFEST = path.join(ROOT, 'package.json');

interface Manifest {
  version: string;
  license: string;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
}

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

/** The compiled modules the entry requires (itself included) and the npm packages they name. */
export function runtimeClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!file.endsWith('.js')) return;
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (isBuiltin(specifier)) continue;
      if (specifier.startsWith('.')) visit(createRequire(file).resolve(specifier));
      else packages.add(packageName(specifier));
    }
  };
  visit(entry);
  return { files: [...files].sort(), packages: [...packages].sort() };
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The entries of package-lock.json that installing `names` needs, at the same paths (a part of an
 * installable tree is installable): each package, then what it depends on, found as Node finds it.
 */
export function lockedClosure(lock: Record<string, LockEntry>, names: string[]): Record<string, LockEntry> {
  const closure: Record<string, LockEntry> = {};
  const visit = (from: string, name: string, optional: boolean) => {
    const at = locate(lock, from, name);
    if (at === undefined) {
      if (optional) return;
      throw new Error(`package-lock.json has no ${name} (needed by ${from || 'the CLI'}): run npm install`);
    }
    if (closure[at]) return;
    // A dev-only flag of arrgo's tree is not true of the CLI's.
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = lock[at];
    closure[at] = entry;
    for (const dependency of Object.keys(entry.dependencies ?? {})) visit(at, dependency, false);
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) visit(at, dependency, true);
    for (const dependency of Object.keys(entry.peerDependencies ?? {})) visit(at, dependency, entry.peerDependenciesMeta?.[dependency]?.optional ?? false);
  };
  for (const name of names) visit('', name, false);
  return Object.fromEntries(Object.entries(closure).sort(([a], [b]) => a.localeCompare(b)));
}

function locate(lock: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
    const at = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (lock[at]) return at;
    if (!base) return undefined;
  }
}

function writeJson(file: string, value: unknown): void {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function main(): void {
  const root = JSON.parse(fs.readFileSync(ROOT_MANIFEST, 'utf8')) as Manifest;
  const lock = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  if (!fs.existsSync(ENTRY)) throw new Error(`${path.relative(ROOT, ENTRY)} is missing: run tsc -p tsconfig.build.json first`);
  const { files, packages } = runtimeClosure(ENTRY);
  // src/version.ts reads ../package.json: in the package, the package's own, with the same version.
  const modules = files.filter((file) => file !== ROOT_MANIFEST);

  const dependencies: Record<string, string> = {};
  for (const name of packages) {
    const range = root.dependencies[name];
    if (!range) throw new Error(`the CLI requires ${name}, which is not among arrgo's dependencies in package.json`);
    dependencies[name] = range;
  }
  const manifest = {
    name: 'arrgo-cli',
    version: root.version,
    description: "The arrgo command line on its own: your *arr fleet from a terminal or a script, and the fleet file (arrgo.yaml) as code, over arrgo's API.",
    license: root.license,
    bin: { arrgo: BIN },
    engines: root.engines,
    files: ['dist', 'schemas', 'npm-shrinkwrap.json'],
    dependencies,
  };

  fs.rmSync(OUT, { recursive: true, force: true });
  for (const file of modules) {
    if (!file.startsWith(DIST + path.sep)) throw new Error(`the CLI requires ${path.relative(ROOT, file)}, outside dist/`);
    const target = path.join(OUT, 'dist', path.relative(DIST, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    // The source maps point at src/, which the package does not have.
    fs.writeFileSync(target, fs.readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
  }
  fs.chmodSync(path.join(OUT, BIN), 0o755);
  for (const file of SHIPPED_FILES) {
    fs.mkdirSync(path.dirname(path.join(OUT, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(OUT, file));
  }
  writeJson(path.join(OUT, 'package.json'), manifest);
  writeJson(path.join(OUT, 'npm-shrinkwrap.json'), {
    name: manifest.name,
    version: manifest.version,
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: manifest.name, version: manifest.version, license: manifest.license, dependencies, bin: manifest.bin, engines: manifest.engines }, ...lockedClosure(lock, packages) },
  });
  fs.writeFileSync(path.join(OUT, 'README.md'), readme(manifest.version));
  process.stdout.write(`CLI package written: ${path.relative(process.cwd(), OUT)} (${manifest.name} ${manifest.version}: ${modules.length} modules; dependencies ${packages.join(', ')})\n`);
}

function readme(version: string): string {
  return `# arrgo-cli

\`arrgo\`, the command line of arrgo (configuration management for Radarr, Sonarr and Lidarr fleets), on its
own: a client of a running arrgo's API, without the service.

\`\`\`sh
npm install -g ./arrgo-cli-${version}.tgz
export ARRGO_URL=http://localhost:7979 ARRGO_API_KEY=...   # or: arrgo login --url http://localhost:7979
arrgo status
arrgo --help
\`\`\`

Commands, the fleet file (\`arrgo.yaml\`; its JSON Schema is \`schemas/arrgo-fleet.schema.json\` here) and the
exit codes: \`docs/cli.md\` in arrgo's repository. Node 20 or newer. MIT.
`;
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`CLI package failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
