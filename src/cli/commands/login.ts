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
        if (!apiKey) apiKey = process.stdin.isTTY ? await askHidden('API key (Settings page of arrgo): ') : (await readAll(process.stdin)).trim();
        if (!apiKey) throw new CliError("Give the API key (arrgo's Settings page): type it when asked, pipe it on stdin, or set ARRGO_API_KEY", EXIT.usage);
        const status = await unwrap(createArrgoClient({ baseUrl: url, apiKey }).GET('/api/v1/auth/status'));
        if (!status.authenticated || status.method !== 'apiKey') throw new CliError(`arrgo at ${url} refused the API key; nothing was written`);
        const file = writeProfile(process.env, { url, apiKey });
        if (options.output === 'json') printJson({ stdout: process.stdout }, { url, profile: file });
        else process.stdout.write(`Logged in to ${url}. Profile written to ${file} (readable by you only).\n`);
      }),
    'arrgo login --url http://localhost:7979   # asks for the key, without echoing it',
    'echo "$KEY" | arrgo login --url https://arrgo.example.lan   # in a script',
  );
}

/** Reads a line from the terminal without echoing it (the API key is never shown). */
function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stdout.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish(text);
        if (char === '\u0003') return finish('');
        if (char === '\u007f') text = text.slice(0, -1);
        else text += char;
      }
    };
    const finish = (answer: string) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write('\n');
      resolve(answer.trim());
    };
    stdin.on('data', onData);
  });
}
