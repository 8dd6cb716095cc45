import type { Command } from 'commander';
import { createArrgoClient, unwrap } from '../../client';
import { examples, readAll } from '../command-kit';
import type { GlobalOptions } from '../context';
import { CliError } from '../errors';
import { EXIT } from '../exit-codes';
import { printJson } from '../output';
import { writeProfile } from '../profile';

/** `arrgo login`: checks a URL and API key against arrgo, then keeps them in the profile file (0600). */
export function registerLoginCommand(program: Command): void {
  examples(
    program
      .command('login')
      .description("Check arrgo's URL and API key, then keep them in your profile (mode 0600)")
      .addHelpText(
        'after',
        '\nThe profile is $XDG_CONFIG_HOME/arrgo/profile.json, else ~/.config/arrgo/profile.json. Every command reads it when\n--url/--api-key and ARRGO_URL/ARRGO_API_KEY are absent. The key comes from --api-key, ARRGO_API_KEY or stdin; it is never printed.',
      )
      .action(async function (this: Command) {
        const options = this.optsWithGlobals<GlobalOptions>();
        const url = (options.url ?? process.env.ARRGO_URL ?? '').replace(/\/+$/, '');
        if (!url) throw new CliError('Give the URL: arrgo --url http://localhost:7979 login (or set ARRGO_URL)', EXIT.usage);
        let apiKey = options.apiKey ?? process.env.ARRGO_API_KEY;
        if (!apiKey && !process.stdin.isTTY) apiKey = (await readAll(process.stdin)).trim();
        if (!apiKey) throw new CliError("Give the API key (arrgo's Settings page): pipe it on stdin, or set ARRGO_API_KEY", EXIT.usage);
        const status = await unwrap(createArrgoClient({ baseUrl: url, apiKey }).GET('/api/v1/auth/status'));
        if (!status.authenticated || status.method !== 'apiKey') throw new CliError(`arrgo at ${url} refused the API key; nothing was written`);
        const file = writeProfile(process.env, { url, apiKey });
        if (options.output === 'json') printJson({ stdout: process.stdout }, { url, profile: file });
        else process.stdout.write(`Logged in to ${url}. Profile written to ${file} (readable by you only).\n`);
      }),
    'echo "$ARRGO_API_KEY" | arrgo --url http://localhost:7979 login',
    'arrgo --url https://arrgo.example.lan login   # with ARRGO_API_KEY set',
  );
}
