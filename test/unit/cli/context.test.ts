import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { cliContext } from '../../../src/cli/context';
import { unifiedDiff } from '../../../src/cli/diff';
import { colorsOf } from '../../../src/cli/output';
import { profilePath, readProfile, writeProfile } from '../../../src/cli/profile';

describe('the command line context', () => {
  let home: string;
  beforeEach(() => (home = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-cli-unit-'))));
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  const contextOf = (args: string[], env: NodeJS.ProcessEnv) => {
    const command = new Command('arrgo').option('--url <url>').option('--api-key <key>').exitOverride();
    command.parse(args, { from: 'user' });
    return cliContext(command, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env });
  };

  it('takes the URL and key from the options, else the environment, else the profile, and sends the profile key only to its URL', () => {
    const env = { XDG_CONFIG_HOME: home };
    writeProfile(env, { url: 'http://profile.lan:7979/', apiKey: 'profile-key' });
    expect(fs.statSync(profilePath(env)).mode & 0o777).toBe(0o600);
    expect(readProfile(env)).toEqual({ url: 'http://profile.lan:7979/', apiKey: 'profile-key' });
    expect(contextOf([], env).url).toBe('http://profile.lan:7979');
    expect(contextOf([], { ...env, ARRGO_URL: 'http://env.lan:7979', ARRGO_API_KEY: 'env-key' }).url).toBe('http://env.lan:7979');
    expect(() => contextOf([], { ...env, ARRGO_URL: 'http://env.lan:7979' })).toThrow('No API key');
    expect(contextOf(['--url', 'http://flag.lan', '--api-key', 'k'], { ...env, ARRGO_URL: 'http://env.lan:7979' }).url).toBe('http://flag.lan');
    expect(() => contextOf(['--url', 'http://other.lan'], env)).toThrow('No API key: set ARRGO_API_KEY, pass --api-key, or run `arrgo login`');
    expect(contextOf(['--url', 'http://profile.lan:7979'], env).url).toBe('http://profile.lan:7979');
  });

  it('names a profile it cannot read, and finds it under ~/.config without XDG_CONFIG_HOME', () => {
    expect(profilePath({ HOME: home })).toBe(path.join(home, '.config', 'arrgo', 'profile.json'));
    fs.mkdirSync(path.join(home, 'arrgo'));
    fs.writeFileSync(path.join(home, 'arrgo', 'profile.json'), '{"url": 1}');
    expect(() => contextOf([], { XDG_CONFIG_HOME: home })).toThrow(`The profile ${path.join(home, 'arrgo', 'profile.json')} is not a profile written by \`arrgo login\`; run \`arrgo login\` again`);
  });
});

describe('the unified diff of a sync', () => {
  const changes = [
    { entityType: 'delayProfile', name: 'Standard', action: 'update' as const, remoteId: 1, fields: [{ field: 'torrentDelay', type: 'changed' as const, current: 0, desired: 120 }] },
    { entityType: 'customFormat', name: 'Atmos', action: 'create' as const, remoteId: null, fields: [] },
    { entityType: 'customFormat', name: 'Kept', action: 'unchanged' as const, remoteId: 3, fields: [] },
    { entityType: 'qualityProfile', name: 'HD', action: 'update' as const, remoteId: 2, fields: [{ field: 'items[3].allowed', type: 'added' as const, desired: true }, { field: 'cutoff', type: 'removed' as const, current: 'Bluray-1080p' }] },
  ];

  it('prints one hunk per changed entity, - for what goes and + for what comes, coloured only when asked', () => {
    const plain = unifiedDiff(changes, { current: 'a (live)', desired: 'a (desired)' }, colorsOf({ stdout: { isTTY: false } as never, env: {} }));
    expect(plain).toBe(
      [
        '--- a (live)',
        '+++ a (desired)',
        '@@ delayProfile "Standard" update @@',
        '-torrentDelay: 0',
        '+torrentDelay: 120',
        '@@ customFormat "Atmos" create @@',
        '@@ qualityProfile "HD" update @@',
        '+items[3].allowed: true',
        '-cutoff: "Bluray-1080p"',
        '',
      ].join('\n'),
    );
    const coloured = unifiedDiff(changes, { current: 'a', desired: 'b' }, colorsOf({ stdout: { isTTY: true } as never, env: {} }));
    expect(coloured).toContain('\u001b[31m-torrentDelay: 0\u001b[39m\n\u001b[32m+torrentDelay: 120\u001b[39m');
    expect(unifiedDiff(changes, { current: 'a', desired: 'b' }, colorsOf({ stdout: { isTTY: true } as never, env: { NO_COLOR: '1' } }))).not.toContain('\u001b[');
  });
});
