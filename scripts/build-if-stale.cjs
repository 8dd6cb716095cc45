'use strict';
// `npm start`'s prestart step: runs `npm run build` only when the build is missing or older than
// its sources, so a second start takes seconds instead of the ~30 s of a full build. Plain CommonJS
// with no dependencies: it runs before the TypeScript build exists. `npm run build` always builds.
//
// Sources: every file and folder under src/ and web/ (the console; removing a file changes its
// folder's time), tsconfig*.json, package.json and package-lock.json (a dependency change).
// The build: dist/main.js, dist/web/index.html (the console) and dist/workflow-bundle.js. The bundle is written last by
// `npm run build`, and written whole every time (tsc rewrites only the files that changed), so its
// time is the time of the last complete build.
//
// usage: node scripts/build-if-stale.cjs [root]   (root: the project folder; default the current one)

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const OUTPUTS = ['dist/main.js', 'dist/web/index.html', 'dist/workflow-bundle.js'];
const SOURCE_DIRS = ['src', 'web'];
const STAMP = 'dist/workflow-bundle.js';
const ROOT_SOURCES = /^(tsconfig.*\.json|package\.json|package-lock\.json)$/;

/** The most recently modified source: { file, mtimeMs }. */
function newestSource(root) {
  let newest = { file: null, mtimeMs: -Infinity };
  const consider = (file) => {
    const { mtimeMs } = fs.statSync(file);
    if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  };
  const walk = (dir) => {
    consider(dir);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) consider(full);
    }
  };
  for (const dir of SOURCE_DIRS) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  for (const name of fs.readdirSync(root)) if (ROOT_SOURCES.test(name)) consider(path.join(root, name));
  return newest;
}

/** Why the build must run, or null when it is newer than every source. */
function staleReason(root) {
  const missing = OUTPUTS.find((file) => !fs.existsSync(path.join(root, file)));
  if (missing) return `${missing} is missing`;
  const built = fs.statSync(path.join(root, STAMP)).mtimeMs;
  const newest = newestSource(root);
  if (newest.mtimeMs > built) return `${path.relative(root, newest.file).split(path.sep).join('/')} changed after the last build`;
  return null;
}

function runBuild(root) {
  // Under npm, npm_execpath is npm's own script: run it with this node (no shell, any platform).
  const npm = process.env.npm_execpath;
  const [command, args] = npm && /\.c?js$/.test(npm) ? [process.execPath, [npm, 'run', 'build']] : ['npm', ['run', 'build']];
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: command === 'npm' && process.platform === 'win32' }).status ?? 1;
}

function main() {
  const root = path.resolve(process.argv[2] || process.cwd());
  if (!fs.existsSync(path.join(root, 'package.json'))) {
    console.error(`usage: node scripts/build-if-stale.cjs [root]: ${root} has no package.json`);
    return 2;
  }
  const reason = staleReason(root);
  if (!reason) {
    console.log(`build skipped: ${STAMP} is newer than every source (src/, web/, tsconfig*.json, package.json, package-lock.json); npm run build rebuilds`);
    return 0;
  }
  console.log(`building: ${reason}`);
  const started = new Date();
  const status = runBuild(root);
  // A source saved while the build ran may not be in it: the build counts from when it started.
  if (status === 0) fs.utimesSync(path.join(root, STAMP), started, started);
  return status;
}

if (require.main === module) process.exit(main());
