import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Runs `script` as an ES module in a fresh Node process inside this package, where
 * `@openwork/sandbox` resolves to the built public entry point (the file an installed package
 * loads), and returns the lines it printed.
 */
function runFresh(script: string): string[] {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: packageDirectory,
    encoding: 'utf8',
  });
  return output.trim().split('\n');
}

// Whether mvdan-sh's module is in Node's CommonJS cache: the only way it is ever loaded.
const parserLoaded = `(await import('node:module')).createRequire(process.cwd() + '/').cache`;
const isParser = `(file) => file.includes('/mvdan-sh/')`;

describe('the shell parser loads on first use, not at import (import cost)', () => {
  it('importing the package loads no shell parser; the first analyzeCommand loads it once', () => {
    const lines = runFresh(`
      const cache = ${parserLoaded};
      const loaded = () => Object.keys(cache).filter(${isParser}).length;
      const sandbox = await import('@openwork/sandbox');
      console.log('after import', loaded());
      console.log('analysis', JSON.stringify(sandbox.analyzeCommand('git push --force origin main').findings.map((f) => f.rule)));
      console.log('after first call', loaded());
      sandbox.analyzeCommand('rm -rf /');
      console.log('after second call', loaded());
    `);
    expect(lines).toEqual([
      'after import 0',
      'analysis ["git-force-push"]',
      'after first call 1',
      'after second call 1',
    ]);
  });

  it('the testing subpath and every other entry point leave the parser unloaded too', () => {
    const lines = runFresh(`
      const cache = ${parserLoaded};
      const sandbox = await import('@openwork/sandbox');
      await import('@openwork/sandbox/testing');
      const policy = sandbox.createSandboxPolicy({ workspaceRoots: ['/'], homeDirectory: '/nonexistent-home', tempRoots: [] });
      sandbox.selectSandboxBackend();
      sandbox.detectSandboxDenial({ exitCode: 1, output: "touch: cannot touch 'x': Read-only file system\\n" });
      console.log(policy.mode, Object.keys(cache).filter(${isParser}).length);
    `);
    expect(lines).toEqual(['workspace-write 0']);
  });
});
