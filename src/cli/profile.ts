import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError } from './errors';

/** What `arrgo login` keeps: where arrgo is and its API key. */
export interface Profile {
  url: string;
  apiKey: string;
}

/** `$XDG_CONFIG_HOME/arrgo/profile.json`, or `~/.config/arrgo/profile.json`. */
export function profilePath(env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), '.config');
  return path.join(configHome, 'arrgo', 'profile.json');
}

/** The profile, or null when there is none; a profile that cannot be read is an error that names its file. */
export function readProfile(env: NodeJS.ProcessEnv): Profile | null {
  const file = profilePath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(`The profile ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); run \`arrgo login\` again`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<Profile>;
    if (typeof parsed.url === 'string' && typeof parsed.apiKey === 'string') return { url: parsed.url, apiKey: parsed.apiKey };
  } catch {
    // reported below
  }
  throw new CliError(`The profile ${file} is not a profile written by \`arrgo login\`; run \`arrgo login\` again`);
}

/** Writes the profile readable by its owner only (0600, in a 0700 directory); returns its path. */
export function writeProfile(env: NodeJS.ProcessEnv, profile: Profile): string {
  const file = profilePath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
  // The mode given at creation is masked by the umask; chmod is not.
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
  return file;
}
