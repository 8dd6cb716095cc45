'use strict';
// Finds or installs the Temporal dev server and builds its command line.
// Plain CommonJS with no dependencies so that .ci/run can use it before `npm ci` and the
// service can use it at runtime (src/platform/temporal-dev-server.ts).
//
// Search order (the project brief fixes it):
//   1. TEMPORAL_ADDRESS set: an external server, nothing to find (callers check this first)
//   2. `temporal` on PATH
//   3. the git-ignored tools folder: <repo>/.tools/bin/temporal
//   4. go install github.com/temporalio/cli/cmd/temporal@v1.5.1 into that tools folder
//      (newer tags carry replace directives and cannot be go-installed)

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
const CLI_VERSION = 'v1.5.1';
const ROOT = path.resolve(__dirname, '..');
const TOOLS_BIN = path.join(ROOT, '.tools', 'bin');

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function findOnPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function findGo() {
  return findOnPath('go') || (isExecutable('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : null);
}

/** Returns { path, source } or null when no binary exists and install is false. */
function findTemporalBinary({ install = true, log = () => {} } = {}) {
  const onPath = findOnPath('temporal');
  if (onPath) return { path: onPath, source: 'path' };
  const tool = path.join(TOOLS_BIN, 'temporal');
  if (isExecutable(tool)) return { path: tool, source: 'tools' };
  if (!install) return null;
  const go = findGo();
  if (!go) {
    throw new Error(
      'The Temporal dev server is not installed and Go is not available to install it. ' +
        `Install Go, or put the temporal CLI on PATH, or set TEMPORAL_ADDRESS to an existing server.`,
    );
  }
  fs.mkdirSync(TOOLS_BIN, { recursive: true });
  log(`installing the Temporal dev server with go install ${CLI_MODULE}@${CLI_VERSION} (first run only, takes a few minutes)`);
  const result = spawnSync(go, ['install', `${CLI_MODULE}@${CLI_VERSION}`], {
    env: { ...process.env, GOBIN: TOOLS_BIN, GOFLAGS: process.env.GOFLAGS || '-mod=mod' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0 || !isExecutable(tool)) {
    throw new Error(`go install of the Temporal CLI failed (exit ${result.status})`);
  }
  return { path: tool, source: 'installed' };
}

function readSearchAttributes() {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'search-attributes.json'), 'utf8'));
}

/** Parses the small subset of YAML used by dynamic-config.yaml: `key:` then `  - value: <json>`. */
function readDynamicConfig() {
  const text = fs.readFileSync(path.join(__dirname, 'dynamic-config.yaml'), 'utf8');
  const values = {};
  let key = null;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    if (!line || line.trimStart().startsWith('#')) continue;
    const keyMatch = /^([A-Za-z0-9_.]+):$/.exec(line);
    if (keyMatch) {
      key = keyMatch[1];
      continue;
    }
    const valueMatch = /^\s+-\s+value:\s+(.+)$/.exec(line);
    if (valueMatch && key) values[key] = valueMatch[1].trim();
  }
  return values;
}

/**
 * Arguments for `temporal server start-dev`.
 * options: { port, uiPort, httpPort, metricsPort, dbFile, headless, ip, uiIp, namespaces }
 */
function devServerArgs(options = {}) {
  const args = ['server', 'start-dev', '--log-level', 'error', '--log-format', 'json'];
  if (options.ip) args.push('--ip', options.ip);
  if (options.port) args.push('--port', String(options.port));
  if (options.headless) args.push('--headless');
  else {
    if (options.uiPort) args.push('--ui-port', String(options.uiPort));
    if (options.uiIp) args.push('--ui-ip', options.uiIp);
  }
  if (options.httpPort) args.push('--http-port', String(options.httpPort));
  if (options.metricsPort) args.push('--metrics-port', String(options.metricsPort));
  if (options.dbFile) args.push('--db-filename', options.dbFile);
  for (const namespace of options.namespaces || []) {
    if (namespace !== 'default') args.push('--namespace', namespace);
  }
  for (const [name, type] of Object.entries(readSearchAttributes())) {
    args.push('--search-attribute', `${name}=${type}`);
  }
  for (const [key, value] of Object.entries(readDynamicConfig())) {
    args.push('--dynamic-config-value', `${key}=${value}`);
  }
  return args;
}

module.exports = {
  CLI_MODULE,
  CLI_VERSION,
  TOOLS_BIN,
  findTemporalBinary,
  readSearchAttributes,
  readDynamicConfig,
  devServerArgs,
};

if (require.main === module) {
  const command = process.argv[2] || 'install';
  if (command === 'install') {
    if (process.env.TEMPORAL_ADDRESS) {
      console.log(`TEMPORAL_ADDRESS is set (${process.env.TEMPORAL_ADDRESS}); no dev server needed`);
      process.exit(0);
    }
    const found = findTemporalBinary({ install: true, log: (m) => console.log(m) });
    console.log(`temporal dev server: ${found.path} (${found.source})`);
    try {
      console.log(execFileSync(found.path, ['--version'], { encoding: 'utf8' }).trim());
    } catch {
      /* version output is informational */
    }
  } else if (command === 'args') {
    console.log(devServerArgs({}).join(' '));
  } else {
    console.error('usage: node temporal/provision.cjs [install|args]');
    process.exit(2);
  }
}
