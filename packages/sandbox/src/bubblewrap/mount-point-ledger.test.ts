import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MountPointLedger } from './mount-point-ledger.js';
import { makeTempDirectory } from './test-support/run-wrapped.js';

let root: string;

beforeEach(async () => {
  root = await makeTempDirectory('ow-bwrap-ledger-');
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

describe('MountPointLedger', () => {
  it('removes empty mount-point files and directories deepest first, parents included', async () => {
    const git = path.join(root, '.git');
    const hooks = path.join(git, 'hooks');
    const envrc = path.join(root, '.envrc');
    await fs.mkdir(hooks, { recursive: true });
    await fs.writeFile(envrc, '');
    const ledger = new MountPointLedger();
    await ledger.claim([git, hooks, envrc], []).release();
    expect(await fs.readdir(root)).toEqual([]);
    expect(ledger.claimedPaths).toEqual([]);
  });

  it('never removes what someone filled in the meantime', async () => {
    const vscode = path.join(root, '.vscode');
    const envrc = path.join(root, '.envrc');
    const link = path.join(root, '.idea');
    await fs.mkdir(vscode);
    await fs.writeFile(path.join(vscode, 'settings.json'), '{}');
    await fs.writeFile(envrc, 'export A=1\n');
    await fs.symlink(vscode, link);
    await new MountPointLedger().claim([vscode, envrc, link], []).release();
    expect((await fs.readdir(root)).sort()).toEqual(['.envrc', '.idea', '.vscode']);
    expect(await fs.readFile(envrc, 'utf8')).toBe('export A=1\n');
  });

  it('keeps a mount point while another call still stands on it, and removes it after the last release', async () => {
    const git = path.join(root, '.git');
    const hooks = path.join(git, 'hooks');
    await fs.mkdir(hooks, { recursive: true });
    const ledger = new MountPointLedger();
    const first = ledger.claim([git, hooks], []);
    // The second call found them existing (created by the first call's bwrap) and mounts on them.
    const second = ledger.claim([], [hooks]);
    await first.release();
    expect(await exists(hooks)).toBe(true);
    await first.release(); // idempotent: does not steal the second call's claim
    expect(await exists(hooks)).toBe(true);
    await second.release();
    expect(await exists(git)).toBe(false);
  });
});
