import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readHowInstalled, workspaceNativeAddons } from './install-native-addons-as-user.mjs';

const cleanup: string[] = [];
afterEach(() => {
  for (const directory of cleanup.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('the native-addon leg of the consumer test', () => {
  it('tells a prebuilt download from a source build by the install script output', () => {
    // re2 (install-artifact-from-github) and better-sqlite3 (prebuild-install), as npm --foreground-scripts prints them.
    expect(readHowInstalled('Trying https://github.com/uhop/node-re2/releases/download/1.27.1/linux-x64-127.br ...\nWriting to build/Release/re2.node ...\nDone.', false)).toBe('downloaded');
    expect(readHowInstalled('Trying https://github.com/... \nBuilding locally ...\n$ node-gyp -j max rebuild\ngyp info ok', false)).toBe('compiled');
    expect(readHowInstalled('prebuild-install warn install getaddrinfo ENOTFOUND github.com\ngyp info it worked if it ends with ok', false)).toBe('compiled');
    // better-sqlite3 13 ships N-API binaries in prebuilds/ and runs no script for npm.
    expect(readHowInstalled('\nadded 2 packages in 7s\n', true)).toBe('shipped');
  });

  it('installs the native addons our packages depend on: those with a binding.gyp, at the workspace version', () => {
    const root = mkdtempSync(join(tmpdir(), 'ow-addon-leg-'));
    cleanup.push(root);
    for (const [name, version] of [['re2', '1.27.1'], ['better-sqlite3', '13.2.0'], ['esbuild', '0.25.0']] as const) {
      const directory = join(root, 'node_modules', '.pnpm', `${name}@${version}`, 'node_modules', name);
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, 'package.json'), JSON.stringify({ name, version }));
      if (name !== 'esbuild') writeFileSync(join(directory, 'binding.gyp'), '{}');
    }
    // zod is a dependency without native code; sharp is not installed; esbuild has no binding.gyp.
    expect(workspaceNativeAddons(root, ['zod', 're2', 'better-sqlite3', 'sharp', 'esbuild', 're2'])).toEqual([
      { name: 'better-sqlite3', version: '13.2.0' },
      { name: 're2', version: '1.27.1' },
    ]);
  });
});
