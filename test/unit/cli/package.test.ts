import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lockedClosure, runtimeClosure } from '../../../src/scripts/build-cli-package';

describe('the CLI package (npm run build:cli)', () => {
  it("takes from package-lock.json what the CLI's packages need, at their paths, found as Node finds them", () => {
    const lock = {
      'node_modules/cli-table': { version: '1.0.0', dependencies: { width: '^4.0.0' }, optionalDependencies: { colors: '1.5.0', 'not-installed': '1.0.0' } },
      'node_modules/width': { version: '4.2.3', dependencies: { ansi: '^5.0.0' } },
      'node_modules/ansi': { version: '5.0.1' },
      'node_modules/colors': { version: '1.5.0', optional: true },
      'node_modules/knex': { version: '3.0.0', dependencies: { commander: '^10.0.0' } },
      'node_modules/knex/node_modules/commander': { version: '10.0.1' },
      'node_modules/commander': { version: '14.0.3', dependencies: { width: '^3.0.0' } },
      'node_modules/commander/node_modules/width': { version: '3.1.0', dev: true, dependencies: { ansi: '^5.0.0' } },
      'node_modules/@scope/schema': { version: '7.3.4', peerDependencies: { zod: '^3.20.0' } },
      'node_modules/zod': { version: '3.25.76', devOptional: true },
    };
    expect(lockedClosure(lock, ['@scope/schema', 'cli-table', 'commander'])).toEqual({
      'node_modules/@scope/schema': lock['node_modules/@scope/schema'],
      'node_modules/ansi': { version: '5.0.1' },
      'node_modules/cli-table': lock['node_modules/cli-table'],
      'node_modules/colors': { version: '1.5.0', optional: true },
      'node_modules/commander': lock['node_modules/commander'],
      // Its own width, nested; a dev-only flag of arrgo's tree is not true of the CLI's.
      'node_modules/commander/node_modules/width': { version: '3.1.0', dependencies: { ansi: '^5.0.0' } },
      'node_modules/width': lock['node_modules/width'],
      'node_modules/zod': { version: '3.25.76' },
    });
    expect(() => lockedClosure(lock, ['yaml'])).toThrow('package-lock.json has no yaml (needed by the CLI): run npm install');
  });

  it('follows compiled modules require by require, and names the npm packages they require', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arrgo-cli-closure-'));
    try {
      const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
      write('main.js', '#!/usr/bin/env node\n"use strict";\nconst a = require("./a");\nconst fs = require("node:fs");\n// require("in-a-comment")\n');
      write('a.js', 'require("@scope/schema/dist/generator");\nconst data = require("./data.json");\nPromise.resolve().then(() => require("./lazy"));\n');
      write('lazy.js', "const { Command } = require('commander');\nrequire('path');\nrequire('./a');\n");
      write('data.json', '{}');
      write('unused.js', 'require("express");\n');
      const { files, packages } = runtimeClosure(path.join(dir, 'main.js'));
      expect(files.map((file) => path.basename(file))).toEqual(['a.js', 'data.json', 'lazy.js', 'main.js']);
      expect(packages).toEqual(['@scope/schema', 'commander']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
