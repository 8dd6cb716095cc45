'use strict';
// `npm run chaos`: the chaos soak's long form (docs/reliability.md, "Chaos soak"). Builds dist/ when
// it is stale (the soak's worker processes run dist/main.js), then runs the soak's jest file with
// the form and seed in its environment; exits with jest's status (non-zero on any violation).
//
// usage: npm run chaos [-- --seed <n>] [-- --short]

const { spawnSync } = require('node:child_process');
const path = require('node:path');

const USAGE = 'usage: npm run chaos [-- --seed <non-negative integer>] [--short | --long]';
const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
let seed = 1;
let form = 'long';
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--seed' && /^\d{1,9}$/.test(args[i + 1] ?? '')) seed = Number(args[++i]);
  else if (args[i] === '--short' || args[i] === '--long') form = args[i].slice(2);
  else {
    console.error(`${USAGE}\n(not understood: ${args[i]})`);
    process.exit(2);
  }
}

const build = spawnSync(process.execPath, [path.join(__dirname, 'build-if-stale.cjs'), root], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const jest = spawnSync(process.execPath, [require.resolve('jest/bin/jest', { paths: [root] }), 'test/integration/chaos-soak.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CHAOS_FORM: form, CHAOS_SEED: String(seed), PATH: `${process.env.PATH}${path.delimiter}${path.join(root, '.tools', 'bin')}` },
});
process.exit(jest.status ?? 1);
