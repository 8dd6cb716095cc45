// The layer table of docs/ARCHITECTURE.md, checked by `npm run check:layers` (part of `npm test`).
// Paths are relative to the repository root. A rule here and a row in the table change together;
// an exception needs a comment saying why.
const fs = require('node:fs');
const { builtinModules } = require('node:module');

const NODE_MODULES = '(^|/)node_modules/';
// Node built-ins, as dependency-cruiser names them (`node:fs` and `fs` both resolve to `fs`; the prefix is
// matched too, so neither spelling slips past a rule).
const NODE_BUILTINS = `^(node:)?(${builtinModules.join('|')})$`;
// The built-ins that reach the file system, the network, other processes, threads or the clock. Pure and
// deterministic layers import none of them: `no-io-builtins-in-domain-or-workflows` below.
const NODE_IO = '^(node:)?(fs|http|https|net|child_process|worker_threads|timers)(/|$)';
const ENTRY_POINTS = ['^src/main\\.ts$', '^src/composition/', '^src/bench/', '^src/scripts/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'Every import resolves (a rule cannot check what it cannot see).',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'src/domain: pure TypeScript. Other domain modules, src/errors.ts, zod and the in-memory SQLite of PCD replay.',
      from: { path: '^src/domain/' },
      to: { pathNot: ['^src/domain/', '^src/errors\\.ts$', `${NODE_MODULES}(zod|better-sqlite3|@types/better-sqlite3)/`, NODE_IO] },
    },
    {
      name: 'no-io-builtins-in-domain-or-workflows',
      severity: 'error',
      comment:
        'src/domain and src/workflows: no file system, network, child process, worker thread or timer built-in, with or without `node:`. ' +
        'No exception: the regex deadline (a worker thread) lives in src/services/evaluation/regex-runner.ts. ' +
        'Other built-ins are refused by domain-is-pure and workflows-are-deterministic.',
      from: { path: '^src/(domain|workflows)/' },
      to: { path: NODE_IO },
    },
    {
      name: 'contracts-are-leaves',
      severity: 'error',
      comment:
        'src/workflows/contracts: the inputs, results, updates, signals and queries that workflows, activities and services share. Domain types and the Temporal definition helpers only.',
      from: { path: '^src/workflows/contracts/' },
      to: { pathNot: ['^src/workflows/contracts/', '^src/domain/', `${NODE_MODULES}@temporalio/(common|workflow)/`, NODE_IO] },
    },
    {
      name: 'workflows-are-deterministic',
      severity: 'error',
      comment: 'src/workflows: bundled into the Temporal sandbox. Workflows, contracts, pure domain, the workflow SDK; activities as types only.',
      from: { path: '^src/workflows/' },
      to: { pathNot: ['^src/workflows/', '^src/domain/', '^src/activities/', `${NODE_MODULES}@temporalio/(common|workflow)/`, NODE_IO] },
    },
    {
      name: 'workflows-import-activities-as-types',
      severity: 'error',
      comment: 'Activities run in the worker, never in the workflow sandbox.',
      from: { path: '^src/workflows/' },
      to: { path: '^src/activities/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'activities-adapt-to-io',
      severity: 'error',
      comment: 'src/activities: may use services, persistence, clients, platform, domain and workflow contracts; never the API or workflow code.',
      from: { path: '^src/activities/' },
      to: { path: ['^src/api/', '^src/workflows/(?!contracts/)', '^src/emulators/', ...ENTRY_POINTS] },
    },
    {
      name: 'services-are-the-door',
      severity: 'error',
      comment:
        'src/services: use cases, typed workflow starters and queries. Domain, persistence, clients, platform plumbing and workflow contracts; never the API, activities or workflow code.',
      from: { path: '^src/services/' },
      to: { path: ['^src/api/', '^src/activities/', '^src/workflows/(?!contracts/)', '^src/emulators/', ...ENTRY_POINTS] },
    },
    {
      name: 'api-goes-through-services',
      severity: 'error',
      comment: 'src/api: Express + zod over the services. Never activities, workflows, clients, the Temporal or ORM packages.',
      from: { path: '^src/api/' },
      to: {
        path: ['^src/activities/', '^src/workflows/', '^src/clients/', '^src/emulators/', `${NODE_MODULES}@temporalio/`, ...ENTRY_POINTS],
      },
    },
    {
      name: 'routes-call-services-only',
      severity: 'error',
      comment: 'Route and schema files: services, domain, errors and the api/http toolkit. No persistence, no platform, no ORM.',
      from: { path: '^src/api/(routes|schemas)/' },
      to: { path: ['^src/persistence/', '^src/platform/', '^src/config\\.ts$', `${NODE_MODULES}@mikro-orm/`] },
    },
    {
      name: 'persistence-stores-only',
      severity: 'error',
      comment: 'src/persistence: entities and migrations. Domain types, config, errors and the logger type.',
      from: { path: '^src/persistence/' },
      to: { path: ['^src/(api|services|activities|workflows|clients|emulators)/', ...ENTRY_POINTS] },
    },
    {
      name: 'clients-speak-http-only',
      severity: 'error',
      comment: 'src/clients: typed HTTP clients of the apps. Domain (payload types, app families) and errors.',
      from: { path: '^src/clients/' },
      to: { path: ['^src/(api|services|activities|workflows|persistence|platform|emulators)/', ...ENTRY_POINTS] },
    },
    {
      name: 'platform-is-plumbing',
      severity: 'error',
      comment: 'src/platform: process plumbing (config loading, logging, crypto, Temporal connection and dev server). It knows no feature.',
      from: { path: '^src/platform/' },
      to: { path: ['^src/(api|services|activities|workflows|persistence|clients|domain|emulators)/', ...ENTRY_POINTS] },
    },
    {
      name: 'emulators-stand-alone',
      severity: 'error',
      comment: 'src/emulators: fake apps for tests and the demo. They share the app payload types and nothing else of arrgo.',
      from: { path: '^src/emulators/' },
      to: { path: '^src/', pathNot: ['^src/emulators/', '^src/domain/app-resources/'] },
    },
    {
      name: 'client-stands-alone',
      comment: 'src/client: the generated API client shared by the console and the CLI. Its generated types and openapi-fetch; nothing of arrgo (the console bundles it).',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/', pathNot: '^src/client/' },
    },
    {
      name: 'cli-speaks-through-the-client',
      severity: 'error',
      comment:
        'src/cli: the `arrgo` command line (and its fleet file, src/cli/fleet), a client of the public API only. Its own modules, the generated client (src/client), src/version.ts and its npm packages; nothing else of arrgo. ' +
        'src/version.ts is a leaf (leaf-modules) whose version `arrgo --version` prints; the CLI package (npm run build:cli) ships it beside its own package.json.',
      from: { path: '^src/cli/' },
      to: { path: '^src/', pathNot: ['^src/(cli|client)/', '^src/version\\.ts$'] },
    },
    {
      name: 'console-speaks-through-the-client',
      severity: 'error',
      comment: 'web/: the console. Its own modules, the generated client (src/client) and its npm packages; nothing else of arrgo.',
      from: { path: '^web/', pathNot: '^web/e2e/' },
      to: { path: '^src/', pathNot: '^src/client/' },
    },
    {
      name: 'browser-tests-drive-apps-from-outside',
      severity: 'error',
      comment: "web/e2e: the browser tests. What the console may import, and the emulators' control client (to fault or reset an emulated app from another process); nothing else of arrgo.",
      from: { path: '^web/e2e/' },
      to: { path: '^src/', pathNot: '^src/(client/|emulators/control-client\\.ts$)' },
    },
    {
      name: 'nothing-imports-the-console',
      severity: 'error',
      comment: 'The console is built by Vite into dist/web and served as files; no module of src imports it.',
      from: { path: '^src/' },
      to: { path: '^web/' },
    },
    {
      name: 'leaf-modules',
      severity: 'error',
      comment: 'src/config.ts, src/errors.ts and src/version.ts import nothing of arrgo.',
      from: { path: '^src/(config|errors|version)\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'entry-points-are-not-imported',
      severity: 'error',
      comment: 'The composition root, main, benchmarks and scripts sit at the edge: no layer imports them.',
      from: { pathNot: ENTRY_POINTS },
      to: { path: ENTRY_POINTS },
    },
    {
      name: 'bench-and-scripts-stay-apart',
      severity: 'error',
      comment: 'Benchmarks and scripts may use the composition root and every layer, never each other.',
      from: { path: '^src/bench/' },
      to: { path: '^src/scripts/' },
    },
    {
      name: 'scripts-and-bench-stay-apart',
      severity: 'error',
      comment: 'Benchmarks and scripts may use the composition root and every layer, never each other.',
      from: { path: '^src/scripts/' },
      to: { path: '^src/bench/' },
    },
  ],
  options: {
    doNotFollow: { path: NODE_MODULES },
    // Node built-ins are in the graph, so that rules can refuse them.
    includeOnly: ['^(src|web|node_modules)/', NODE_BUILTINS],
    // Type-only imports count: they are arrows of the table too.
    tsPreCompilationDeps: true,
    ...(fs.existsSync('tsconfig.json') ? { tsConfig: { fileName: 'tsconfig.json' } } : {}),
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    cache: false,
  },
};
