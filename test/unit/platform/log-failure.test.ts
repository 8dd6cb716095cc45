import fs from 'node:fs';
import path from 'node:path';
import { logFailure, type Logger } from '../../../src/platform/logger';

describe('logFailure', () => {
  it('logs the class at the given level and the error itself only at debug', () => {
    const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
    const logger = Object.fromEntries(['debug', 'warn', 'error'].map((level) => [level, (fields: Record<string, unknown>, msg: string) => lines.push({ level, fields, msg })])) as unknown as Logger;
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:20252'), { name: 'DriverException' });
    logFailure(logger, 'warn', { instanceId: 9 }, error, 'drift check failed');
    expect(lines).toEqual([
      { level: 'warn', fields: { instanceId: 9, errorClass: 'Error' }, msg: 'drift check failed' },
      { level: 'debug', fields: { instanceId: 9, err: error }, msg: 'drift check failed: detail' },
    ]);
  });

  // The chaos soak (seed 2) found a drift poll's warn line carrying a PostgreSQL error's stack; every
  // line above debug now goes through logFailure or names the class itself.
  it('is the way src logs an error above debug: no info, warn, error or fatal line carries err', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts')) {
          const text = fs.readFileSync(file, 'utf8');
          for (const match of text.matchAll(/\.(info|warn|error|fatal)\(\s*\{[^}]*\berr\s*[:,}]/g)) offenders.push(`${path.relative(process.cwd(), file)}: ${match[0]}`);
        }
      }
    };
    walk(path.join(__dirname, '../../../src'));
    expect(offenders).toEqual([]);
  });
});
