import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type Emulator } from '../../src/emulators';
import { CLI_MAIN, runCliBinary, runCliInTerminal, type CliRun, type CliRunOptions } from '../helpers/cli';
import { addInstance, leakMarkers, linkDatabase, SAMPLE_PCD, type FleetInstance } from '../helpers/fleet';
import { startArrgo, type Harness } from '../helpers/harness';

/** An app's secrets among its leak markers: its address is configuration the CLI shows (`instances list`), its key is not. */
function appSecrets(markers: readonly string[], emulator: Emulator): string[] {
  return markers.filter((marker) => !emulator.baseUrl.includes(marker));
}

// The real `arrgo` binary (dist/cli/main.js, `npm run build` first) against the real service,
// Temporal and emulated apps.
describe('the arrgo command line', () => {
  let h: Harness;
  let configHome: string;
  let env: Record<string, string>;
  const fleet: FleetInstance[] = [];
  const emulators: Emulator[] = [];
  const runs: CliRun[] = [];
  const secrets: string[] = [];

  /** Runs the binary with ARRGO_URL and ARRGO_API_KEY, and keeps its output for the secret check. */
  const arrgo = async (args: string[], options: CliRunOptions = {}) => {
    const run = await runCliBinary(args, { ...options, env: { ...env, ...options.env } });
    runs.push(run);
    return run;
  };
  const inTerminal = async (args: string[], options: CliRunOptions = {}) => {
    const run = await runCliInTerminal(args, { ...options, env: { ...env, ...options.env } });
    runs.push(run);
    return run;
  };
  const json = <T = any>(run: CliRun): T => {
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as T;
  };
  const movie = async (name: string) => {
    const instance = await addInstance(h, 'movie_app', { name, databaseId });
    fleet.push(instance);
    secrets.push(...appSecrets(leakMarkers(instance), instance.emulator));
    return instance;
  };
  let databaseId: number;

  beforeAll(async () => {
    h = await startArrgo();
    configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-cli-config-'));
    env = { ARRGO_URL: h.baseUrl, ARRGO_API_KEY: h.apiKey, XDG_CONFIG_HOME: configHome };
    secrets.push(h.apiKey);
    databaseId = await linkDatabase(h, 'sample', SAMPLE_PCD);
  });
  afterAll(async () => {
    await h?.close();
    for (const instance of fleet) await instance.emulator.close();
    for (const emulator of emulators) await emulator.close();
    if (configHome) fs.rmSync(configHome, { recursive: true, force: true });
  });

  it('shows help with an example for every command, and exits 64 on a wrong command line', async () => {
    const commands = [[], ['status'], ['instances'], ['instances', 'list'], ['instances', 'add'], ['instances', 'test'], ['instances', 'rm'], ['db', 'list'], ['db', 'link'], ['db', 'pull'], ['db', 'status'],
      ['sync', 'preview'], ['sync', 'apply'], ['drift'], ['drift', 'check'], ['rollout', 'start'], ['rollout', 'status'], ['rollout', 'proceed'], ['rollout', 'abort'], ['rollout', 'watch'],
      ['history'], ['timeline'], ['evaluate'], ['pcd', 'export'], ['pcd', 'import'], ['completion'], ['login']];
    for (const command of commands) {
      const help = await arrgo([...command, '--help']);
      expect({ command, code: help.code, example: /\nExamples?:\n {2}\$ arrgo /.test(help.stdout) }).toEqual({ command, code: 0, example: true });
    }
    // The bin runs as a program (shebang, executable bit), also as `npx arrgo` in the checkout,
    // and a reader that stops early gets no stack trace.
    expect(fs.readFileSync(CLI_MAIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(fs.statSync(CLI_MAIN).mode & 0o111).toBe(0o111);
    const npx = spawnSync('npx', ['--no', 'arrgo', 'completion', '--help'], { cwd: path.resolve(__dirname, '..', '..'), encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    expect({ status: npx.status, usage: npx.stdout.split('\n')[0] }).toEqual({ status: 0, usage: 'Usage: arrgo completion [options] <shell>' });
    const piped = spawnSync('bash', ['-c', `"${CLI_MAIN}" completion bash | head -c 10`], { encoding: 'utf8' });
    expect({ status: piped.status, stdout: piped.stdout, stderr: piped.stderr }).toEqual({ status: 0, stdout: '# arrgo co', stderr: '' });

    // --version (-V) prints the version the service reports, and nothing else.
    const health = await h.request('GET', '/health', undefined, { auth: false });
    for (const flag of ['--version', '-V']) expect(await arrgo([flag])).toEqual({ code: 0, stdout: `${health.body.version}\n`, stderr: '' });

    const unknown = await arrgo(['frobnicate']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain("error: unknown command 'frobnicate'");
    const missing = await arrgo(['instances', 'test']);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain("missing required argument 'instance'");
    const noUrl = await runCliBinary(['status'], { env: { XDG_CONFIG_HOME: configHome } });
    expect(noUrl).toEqual({ code: 1, stdout: '', stderr: 'arrgo: No arrgo URL: set ARRGO_URL (for example http://localhost:7979), pass --url, or run `arrgo login`\n' });
  });

  it('adds, lists, tests and removes instances, never showing their keys', async () => {
    const emulator = await startEmulator({ app: 'radarr', apiKey: 'radarr-cli-key-0123456789abcdef' });
    emulators.push(emulator);
    secrets.push('radarr-cli-key-0123456789abcdef', ...appSecrets(emulator.leakMarkers, emulator));
    const added = await arrgo(['instances', 'add', 'cli-radarr', '--type', 'movie_app', '--base-url', emulator.baseUrl, '--app-key-env', 'RADARR_KEY', '--tag', 'cli'], { env: { RADARR_KEY: 'radarr-cli-key-0123456789abcdef' } });
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^Added instance \d+ \(cli-radarr, movie_app\)\.\nConnection: reachable, Radarr /);
    const id = Number(/Added instance (\d+)/.exec(added.stdout)![1]);

    const table = await arrgo(['instances', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`│ ${id} +│ cli-radarr +│ movie_app +│ ${emulator.baseUrl.replace(/[.]/g, '\\.')} +│ yes +│ verified`));
    const listed = json<{ id: number; name: string; tags: string[]; apiKeySet: boolean }[]>(await arrgo(['instances', 'list', '-o', 'json']));
    expect(listed.find((i) => i.id === id)).toMatchObject({ name: 'cli-radarr', tags: ['cli'], apiKeySet: true });

    const tested = json(await arrgo(['-o', 'json', 'instances', 'test', 'cli-radarr']));
    expect(tested).toMatchObject({ reachable: true, appName: 'Radarr', matchesArrType: true });
    expect((await arrgo(['instances', 'test', String(id)])).stdout).toMatch(/^Connection: reachable, Radarr \d/);

    // Without a terminal and without --yes nothing is removed.
    const refused = await arrgo(['instances', 'rm', 'cli-radarr']);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `arrgo: Remove instance ${id} (cli-radarr) from arrgo? Refused: not a terminal, so nobody can confirm; pass --yes to go ahead.\n` });
    expect((await h.get(`/instances/${id}`)).status).toBe(200);
    const removed = await arrgo(['instances', 'rm', 'cli-radarr', '--yes']);
    expect(removed).toEqual({ code: 0, stdout: `Removed instance ${id} (cli-radarr).\n`, stderr: '' });
    expect((await h.get(`/instances/${id}`)).status).toBe(404);
    const gone = await arrgo(['instances', 'test', String(id)]);
    expect(gone).toEqual({ code: 1, stdout: '', stderr: `arrgo: No instance named or numbered "${id}" (see \`arrgo instances list\`)\n` });
  });

  it('links, lists, pulls and reports databases', async () => {
    const linked = json(await arrgo(['db', 'link', 'cli-sample', '--path', SAMPLE_PCD, '-o', 'json']));
    expect(linked).toMatchObject({ name: 'cli-sample', source: { kind: 'local', path: SAMPLE_PCD }, cache: { status: 'ready' } });
    const table = await arrgo(['db', 'list']);
    expect(table.stdout).toMatch(new RegExp(`│ ${linked.id} +│ cli-sample +│ ${SAMPLE_PCD.replace(/[.]/g, '\\.')} .*│ ready +│`));
    const pulled = await arrgo(['db', 'pull', 'cli-sample']);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toMatch(new RegExp(`^Pull ready\\.\\nDatabase ${linked.id} \\(cli-sample\\): ${SAMPLE_PCD}\\n  commit .*, cache ready`));
    const status = json(await arrgo(['db', 'status', String(linked.id), '-o', 'json']));
    expect(status).toMatchObject({ database: { id: linked.id, cache: { status: 'ready' } }, pull: { running: false, phase: 'done' } });
    const refused = await arrgo(['db', 'link', 'cli-sample', '--path', SAMPLE_PCD]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^arrgo: .*cli-sample.* \(HTTP (400|409)\)\n$/);
  });

  it('previews a sync as a unified diff, refuses to apply without --yes off a terminal, applies with --yes, then reports drift', async () => {
    const instance = await movie('cli-sync');
    const preview = await arrgo(['sync', 'preview', 'cli-sync']);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/^--- cli-sync \(live\)\n\+\+\+ cli-sync \(desired from sample\)\n@@ /);
    expect(preview.stdout).toContain('@@ qualityProfile "Movies 1080p" create @@\n');
    expect(preview.stdout).toContain('@@ delayProfile "Standard" update @@\n-torrentDelay: 0\n+torrentDelay: 120\n');
    expect(preview.stdout).not.toContain('\u001b['); // not a terminal: no colour
    const counts = /Preview (\d+) of cli-sync: (\d+) to create, (\d+) to update, (\d+) to delete/.exec(preview.stdout)!;
    expect(Number(counts[2]) + Number(counts[3])).toBeGreaterThan(0);
    const asJson = json(await arrgo(['sync', 'preview', 'cli-sync', '-o', 'json']));
    expect(asJson).toMatchObject({ instanceName: 'cli-sync', status: 'ready', counts: { create: Number(counts[2]), update: Number(counts[3]) } });

    // In a terminal the diff is coloured, unless NO_COLOR says otherwise.
    const coloured = await inTerminal(['sync', 'preview', 'cli-sync']);
    expect(coloured.stdout).toContain('\u001b[31m-torrentDelay: 0\u001b[39m');
    expect(coloured.stdout).toContain('\u001b[32m+torrentDelay: 120\u001b[39m');
    const plain = await inTerminal(['sync', 'preview', 'cli-sync'], { env: { NO_COLOR: '1' } });
    expect(plain.stdout).toContain('+torrentDelay: 120');
    expect(plain.stdout).not.toContain('\u001b[32m');

    // Drift before the sync: the instance differs (exit 2 for scripts).
    const drifted = await arrgo(['drift', 'check', 'cli-sync', '-o', 'json']);
    expect(drifted.code).toBe(2);
    expect(JSON.parse(drifted.stdout)).toMatchObject([{ instanceId: instance.id, status: 'drifted' }]);

    // In a terminal the question is asked; "n" changes nothing.
    const declined = await inTerminal(['sync', 'apply', 'cli-sync'], { input: 'n\n' });
    expect(declined.code).toBe(1);
    expect(declined.stdout).toMatch(/Apply \d+ change\(s\) to cli-sync\? \[y\/N\] /);
    expect(declined.stdout).toContain('arrgo: Cancelled: nothing was changed.');
    const refused = await arrgo(['sync', 'apply', 'cli-sync']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^arrgo: Apply \d+ change\(s\) to cli-sync\? Refused: not a terminal, so nobody can confirm; pass --yes to go ahead\.\n$/);
    expect((await h.get(`/sync-history?instanceId=${instance.id}`)).body.totalRecords).toBe(0);

    const notThis = await arrgo(['sync', 'apply', 'cli-canary-none', '--preview', String(asJson.id), '--yes']);
    expect(notThis.stderr).toBe('arrgo: No instance named or numbered "cli-canary-none" (see `arrgo instances list`)\n');
    // The preview shown earlier (still fresh, the app unchanged) is the one applied.
    const applied = await arrgo(['sync', 'apply', 'cli-sync', '--preview', String(asJson.id), '--yes']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/\nSync applied \(run \d+, see `arrgo history`\)\.\n$/);
    expect((await h.get(`/sync/previews/${asJson.id}`)).body.status).toBe('applied');
    const again = await arrgo(['sync', 'preview', 'cli-sync']);
    expect(again.stdout).toMatch(/^Preview \d+ of cli-sync: 0 to create, 0 to update, 0 to delete, \d+ unchanged/);

    const inSync = await arrgo(['drift', 'check', 'cli-sync']);
    expect(inSync.code).toBe(0);
    expect(inSync.stdout).toMatch(new RegExp(`│ ${instance.id} +│ cli-sync +│ movie_app +│ in-sync +│ 0 +│ 0 +│`));
    const stored = json(await arrgo(['drift', '-o', 'json']));
    expect(stored.find((d: { instanceId: number }) => d.instanceId === instance.id)).toMatchObject({ status: 'in-sync' });

    const history = await arrgo(['history', '--instance', 'cli-sync']);
    expect(history.stdout).toMatch(/│ \d+ +│ cli-sync +│ manual +│ success +│/);
    const runs = json(await arrgo(['history', '-o', 'json', '--status', 'success']));
    expect(runs.map((r: { instanceName: string }) => r.instanceName)).toContain('cli-sync');

    const status = await arrgo(['status']);
    expect(status.stdout).toMatch(new RegExp(`│ ${instance.id} +│ cli-sync +│ movie_app +│ [^│]*│ in-sync +│`));
    expect(json(await arrgo(['status', '-o', 'json'])).counts.drift['in-sync']).toBeGreaterThanOrEqual(1);
  });

  it('starts a rollout, watches it to the gate in a terminal, proceeds and watches it to the end', async () => {
    const [canary, ...targets] = [await movie('cli-canary'), await movie('cli-target-a'), await movie('cli-target-b')];
    const started = json(await arrgo(['rollout', 'start', '--canary', canary.name, '--targets', ...targets.map((t) => t.name), '--batch-size', '1', '-o', 'json']));
    expect(started).toMatchObject({ status: 'canary_running', canary: { instanceId: canary.id }, batchSize: 1, sections: ['qualityProfiles', 'delayProfiles', 'mediaManagement'] });

    const toGate = await inTerminal(['rollout', 'watch', String(started.id)]);
    expect(toGate.code).toBe(3);
    expect(toGate.stdout).toMatch(/canary cli-canary +\[[█░]+\] 1\/1 success/);
    expect(toGate.stdout).toMatch(/batch 2 +\[░+\] 0\/1 waiting/);
    expect(toGate.stdout).toContain(`Rollout ${started.id} waits at the gate: canary cli-canary success. Next: \`arrgo rollout proceed ${started.id}\``);
    expect(json(await arrgo(['rollout', 'status', String(started.id), '-o', 'json'])).status).toBe('awaiting_confirmation');
    expect((await arrgo(['rollout', 'status'])).stdout).toMatch(new RegExp(`│ ${started.id} +│ movie_app +│ awaiting_confirmation +│ cli-canary \\(success\\)`));

    const proceeded = await arrgo(['rollout', 'proceed', String(started.id), '--yes']);
    expect(proceeded.code).toBe(0);
    const done = await inTerminal(['rollout', 'watch', String(started.id)]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/batch 1 +\[█+\] 1\/1 done/);
    expect(done.stdout).toMatch(/batch 2 +\[█+\] 1\/1 done/);
    expect(done.stdout).toMatch(/cli-target-b +\[█+\] 1\/1 success/);
    expect(done.stdout).toContain(`Rollout ${started.id} completed: 2 of 2 target(s) synced.`);
    const final = json(await arrgo(['rollout', 'watch', String(started.id), '-o', 'json']));
    expect(final).toMatchObject({ id: started.id, status: 'completed', rolloutResults: targets.map((t) => ({ instanceId: t.id, status: 'success' })) });
    // Without a terminal, watch writes one line per change.
    const lines = await arrgo(['rollout', 'watch', String(started.id)]);
    expect(lines.stdout).toBe(`rollout ${started.id}: completed\ncanary cli-canary: success\ntarget cli-target-a: success\ntarget cli-target-b: success\nRollout ${started.id} completed: 2 of 2 target(s) synced.\n`);

    // An aborted rollout ends watch with exit 1 and its reason.
    const second = json(await arrgo(['rollout', 'start', '--canary', canary.name, '--targets', targets[0].name, '--allow-in-sync-canary', '-o', 'json']));
    const aborted = await arrgo(['rollout', 'watch', String(second.id)]);
    expect(aborted.code).toBe(1);
    expect(aborted.stderr).toMatch(new RegExp(`^arrgo: Rollout ${second.id} aborted: .+\\n$`));

    const timeline = await arrgo(['timeline', '--source', 'canary']);
    expect(timeline.stdout).toMatch(new RegExp(`│ canary:${started.id} `));
    expect(json(await arrgo(['timeline', '-o', 'json', '--instance', canary.name])).items.map((i: { id: string }) => i.id)).toContain(`canary:${started.id}`);
  });

  it('evaluates titles from arguments and from stdin', async () => {
    const titles = ['The.Quiet.Harbour.2019.1080p.BluRay.x265-CLIGRP', 'Another.Film.1968.720p.WEB-DL.DDP5.1.Atmos-NOGRP'];
    const fromArgs = json(await arrgo(['evaluate', '--database', 'sample', '-o', 'json', ...titles]));
    expect(fromArgs.evaluations.map((e: { title: string }) => e.title)).toEqual(titles);
    expect(fromArgs.evaluations[0].parsed).toMatchObject({ year: 2019, resolution: 1080, releaseGroup: 'CLIGRP' });
    const fromStdin = json(await arrgo(['evaluate', '--database', String(databaseId), '-o', 'json'], { input: `${titles.join('\n')}\n` }));
    expect(fromStdin.evaluations).toEqual(fromArgs.evaluations);
    const table = await arrgo(['evaluate', '--database', 'sample', titles[0]]);
    expect(table.stdout).toContain('The.Quiet.Harbour.2019.1080p.BluRay.x265-CLIGRP');
    expect(table.stdout).toContain('The Quiet Harbour 2019 1080p bluray -CLIGRP');
    const matched = Object.entries(fromArgs.evaluations[0].cfMatches as Record<string, boolean>).filter(([, m]) => m).map(([id]) => fromArgs.customFormats[id]);
    for (const name of matched) expect(table.stdout).toContain(name);
  });

  it('exports and imports a portable entity, and prints an API refusal as one line with exit 1', async () => {
    const exported = await arrgo(['pcd', 'export', '--database', 'sample', '--type', 'custom_format', '--name', 'Atmos']);
    const entity = json(exported);
    expect(entity).toMatchObject({ entityType: 'custom_format', data: { name: 'Atmos' } });
    // The same name again is refused by the API: its {error} text, one line, no stack trace.
    const duplicate = await arrgo(['pcd', 'import', '--database', 'sample'], { input: exported.stdout });
    expect(duplicate.code).toBe(1);
    expect(duplicate.stdout).toBe('');
    expect(duplicate.stderr).toMatch(/^arrgo: [^\n]*Atmos[^\n]* \(HTTP 400\)\n$/);
    expect(duplicate.stderr).not.toMatch(/\bat .*\.js:\d+/);

    const wrongKey = await arrgo(['status'], { env: { ARRGO_API_KEY: 'not-the-key-of-this-arrgo' } });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stdout).toBe('');
    expect(wrongKey.stderr).toMatch(/^arrgo: [^\n]+ \(HTTP 401\)\n$/);

    const file = path.join(configHome, 'atmos-copy.json');
    fs.writeFileSync(file, JSON.stringify({ ...entity, data: { ...entity.data, name: 'Atmos CLI copy' } }));
    const imported = await arrgo(['pcd', 'import', '--database', 'sample', file]);
    expect(imported).toEqual({ code: 0, stdout: 'Imported custom_format "Atmos CLI copy" into the user layer of sample.\n', stderr: '' });
    const back = json(await arrgo(['pcd', 'export', '--database', 'sample', '--type', 'custom_format', '--name', 'Atmos CLI copy']));
    expect(back.data).toEqual({ ...entity.data, name: 'Atmos CLI copy' });
  });

  it('prints completion scripts that complete the command tree', async () => {
    const bash = await arrgo(['completion', 'bash']);
    expect(bash.code).toBe(0);
    const script = path.join(configHome, 'arrgo.bash');
    fs.writeFileSync(script, bash.stdout);
    const complete = (words: string[]) =>
      execFileSync('bash', ['-c', `source "$0"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _arrgo; echo "\${COMPREPLY[*]}"`, script], { encoding: 'utf8' }).trim();
    expect(complete(['arrgo', 'roll'])).toBe('rollout');
    expect(complete(['arrgo', 'rollout', ''])).toBe('start status proceed abort watch --help --url --api-key --output --yes --version --help');
    expect(complete(['arrgo', '-o', 'json', 'instances', 'r'])).toBe('rm');
    expect(complete(['arrgo', 'sync', 'apply', '--'])).toContain('--section');
    const zsh = await arrgo(['completion', 'zsh']);
    expect(zsh.stdout.startsWith('#compdef arrgo\nautoload -U +X bashcompinit && bashcompinit\n# arrgo completion for bash')).toBe(true);
    const fish = await arrgo(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c arrgo -n '__fish_seen_subcommand_from rollout; and not __fish_seen_subcommand_from start status proceed abort watch' -a watch -d 'Progress bars per batch and target until the rollout ends or waits at the gate'");
    expect((await arrgo(['completion', 'tcsh'])).code).toBe(64);
  });

  it('logs in: the profile file (0600) holds the URL and key, and commands use it when nothing else is set', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-cli-login-'));
    try {
      const profileEnv = { XDG_CONFIG_HOME: home };
      const wrong = await runCliBinary(['--url', h.baseUrl, 'login'], { env: profileEnv, input: 'not-the-key\n' });
      runs.push(wrong);
      expect(wrong).toEqual({ code: 1, stdout: '', stderr: `arrgo: arrgo at ${h.baseUrl} refused the API key; nothing was written\n` });
      expect(fs.existsSync(path.join(home, 'arrgo', 'profile.json'))).toBe(false);

      const login = await runCliBinary(['login', '--url', h.baseUrl], { env: profileEnv, input: `${h.apiKey}\n` });
      runs.push(login);
      const file = path.join(home, 'arrgo', 'profile.json');
      expect(login).toEqual({ code: 0, stdout: `Logged in to ${h.baseUrl}. Profile written to ${file} (readable by you only).\n`, stderr: '' });
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ url: h.baseUrl, apiKey: h.apiKey });

      const status = await runCliBinary(['status', '-o', 'json'], { env: profileEnv });
      runs.push(status);
      expect(JSON.parse(status.stdout).instancesTotal).toBe((await h.get('/fleet/overview')).body.instancesTotal);
      // The profile's key never goes to another URL.
      const elsewhere = await runCliBinary(['status', '--url', 'http://127.0.0.1:9'], { env: profileEnv });
      expect(elsewhere).toEqual({ code: 1, stdout: '', stderr: 'arrgo: No API key: set ARRGO_API_KEY, pass --api-key, or run `arrgo login`\n' });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('never printed a secret', () => {
    expect(runs.length).toBeGreaterThan(70);
    expect(secrets.length).toBeGreaterThan(8);
    const leaks = runs.flatMap((run) => secrets.filter((secret) => run.stdout.includes(secret) || run.stderr.includes(secret)));
    expect(leaks).toEqual([]);
  });
});
