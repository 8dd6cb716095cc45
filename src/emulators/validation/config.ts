/**
 * Rules for the naming and media-management config resources. Token rules restate the apps'
 * filename validators (required tokens per format); paths are checked for shape only, since the
 * emulator has no file system of the app's host.
 */
import { displayName, failure, rules, type Failure } from './failures';

/** Path.GetInvalidPathChars() on Linux, where the apps usually run. */
const INVALID_PATH_CHARS = ['\0'];

export function illegalCharacters(property: string, value: unknown): Failure[] {
  if (typeof value !== 'string' || value.trim() === '') return [];
  const found = INVALID_PATH_CHARS.filter((char) => value.includes(char));
  return found.length
    ? [failure(property, `Contains illegal characters: ${found.join('')}`, value, 'IllegalCharactersValidator', { invalidCharacters: found.join('') })]
    : [];
}

/** NotEmpty + IllegalCharacters + a token check, as the apps' Valid*Format rule builders chain them. */
export function formatRule(property: string, value: unknown, tokenCheck?: { ok: (value: string) => boolean; message: string; code: string }): Failure[] {
  const failures = [...rules.notEmpty(property, value), ...illegalCharacters(property, value)];
  if (tokenCheck && !(typeof value === 'string' && tokenCheck.ok(value))) {
    failures.push(failure(property, tokenCheck.message, value, tokenCheck.code));
  }
  return failures;
}

export function inclusiveBetween(property: string, value: number, from: number, to: number): Failure[] {
  return value >= from && value <= to
    ? []
    : [
        failure(property, `'${displayName(property)}' must be between ${from} and ${to}. You entered ${value}.`, value, 'InclusiveBetweenValidator', {
          from,
          to,
        }),
      ];
}

function isPathValid(value: string): boolean {
  if (value.trim() === '' || value.includes('\0')) return false;
  return value.startsWith('/') || /^[A-Za-z]:\\/.test(value) || value.startsWith('\\\\');
}

export function validPath(property: string, value: unknown): Failure[] {
  return typeof value === 'string' && isPathValid(value)
    ? []
    : [failure(property, `Invalid Path: '${value ?? ''}'`, value, 'PathValidator', { path: value ?? null })];
}

/** The media-management rules shared by the three apps. */
export function mediaManagementRules(resource: Record<string, unknown>): Failure[] {
  const failures: Failure[] = [];
  failures.push(...rules.greaterThanOrEqual('RecycleBinCleanupDays', resource.recycleBinCleanupDays as number, 0));
  const chmod = resource.chmodFolder;
  if (typeof chmod === 'string' && chmod !== '' && !/^[0-7]{3,4}$/.test(chmod)) {
    failures.push(failure('ChmodFolder', 'Must contain a valid Unix permissions octal', chmod, 'FolderChmodValidator'));
  }
  const recycleBin = resource.recycleBin;
  if (typeof recycleBin === 'string' && recycleBin.trim() !== '') failures.push(...validPath('RecycleBin', recycleBin));
  if (resource.useScriptImport === true) failures.push(...validPath('ScriptImportPath', resource.scriptImportPath));
  failures.push(...rules.greaterThanOrEqual('MinimumFreeSpaceWhenImporting', resource.minimumFreeSpaceWhenImporting as number, 100));
  return failures;
}
