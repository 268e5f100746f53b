import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MountPointLedger } from './mount-point-ledger.js';
import { ownerOf } from './mount-point-registry.js';
import { makeTempDirectory } from './test-support/run-wrapped.js';

let root: string;
let registry: string;

beforeEach(async () => {
  root = await makeTempDirectory('ow-bwrap-ledger-');
  registry = `${root}-registry`;
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(registry, { recursive: true, force: true });
});

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

function claim(ledger: MountPointLedger, created: string[], destinations: string[], planted = new Map<string, string>()) {
  const wrapped = ledger.claim(created, destinations, planted, ledger.generation());
  if (wrapped === undefined) throw new Error('claim refused without any other process');
  return wrapped;
}

describe('MountPointLedger', () => {
  it('removes empty mount-point files and directories deepest first, parents included, and keeps no record of them', async () => {
    const git = path.join(root, '.git');
    const hooks = path.join(git, 'hooks');
    const envrc = path.join(root, '.envrc');
    const ledger = new MountPointLedger(registry, { reaper: false });
    const held = claim(ledger, [git, hooks, envrc], []);
    await fs.mkdir(hooks, { recursive: true });
    await fs.writeFile(envrc, '');
    expect(await exists(registry)).toBe(true);
    await held.release();
    expect(await fs.readdir(root)).toEqual([]);
    expect((await fs.readdir(registry)).filter((name) => name !== 'generation')).toEqual([]);
    ledger.registry.removeFolderIfEmpty(); // the reaper's last step when this process ends
    expect(await exists(registry)).toBe(false);
  });

  it('never removes what someone filled in the meantime, nor what a link points to', async () => {
    const vscode = path.join(root, '.vscode');
    const envrc = path.join(root, '.envrc');
    const commondir = path.join(root, 'commondir');
    const link = path.join(root, '.idea');
    const target = path.join(root, 'target');
    const held = claim(new MountPointLedger(registry, { reaper: false }), [vscode, envrc, link, commondir], [], new Map([[commondir, '.\n']]));
    await fs.mkdir(vscode);
    await fs.writeFile(path.join(vscode, 'settings.json'), '{}');
    await fs.writeFile(envrc, 'export A=1\n');
    await fs.writeFile(commondir, '../evil\n');
    await fs.mkdir(target);
    await fs.symlink(target, link);
    await held.release();
    expect((await fs.readdir(root)).sort()).toEqual(['.envrc', '.idea', '.vscode', 'commondir', 'target']);
    expect(await fs.readFile(envrc, 'utf8')).toBe('export A=1\n');
    expect(await fs.readFile(commondir, 'utf8')).toBe('../evil\n');
  });

  it('removes a file mount point that still holds exactly what was planted', async () => {
    const commondir = path.join(root, 'commondir');
    const held = claim(new MountPointLedger(registry, { reaper: false }), [commondir], [], new Map([[commondir, '.\n']]));
    await fs.writeFile(commondir, '.\n');
    await held.release();
    expect(await exists(commondir)).toBe(false);
  });

  it('keeps a mount point while another call — of this or another ledger on the same registry — still stands on it', async () => {
    const git = path.join(root, '.git');
    const hooks = path.join(git, 'hooks');
    const ledger = new MountPointLedger(registry, { reaper: false });
    const other = new MountPointLedger(registry, { reaper: false });
    const first = claim(ledger, [git, hooks], []);
    await fs.mkdir(hooks, { recursive: true });
    // The second call found them existing (created by the first call's bwrap) and mounts on them.
    const second = claim(other, [], [hooks]);
    await first.release();
    expect(await exists(hooks)).toBe(true);
    await first.release(); // idempotent: does not steal the second call's claim
    expect(await exists(hooks)).toBe(true);
    await second.release();
    expect(await exists(git)).toBe(false);
  });

  it('refuses a claim rendered before another sweep removed mount points, so that the call renders again', async () => {
    const envrc = path.join(root, '.envrc');
    const ledger = new MountPointLedger(registry, { reaper: false });
    const held = claim(ledger, [envrc], []);
    await fs.mkdir(envrc);
    const rendered = ledger.generation(); // a rendering that saw .envrc as existing
    await held.release();
    expect(ledger.claim([], [envrc], new Map(), rendered)).toBeUndefined();
    const again = claim(ledger, [envrc], []);
    await again.release();
  });

  it('drops the record of a dead host whose call created nothing (it only stood on mount points of others)', async () => {
    const ended = spawn('sleep', ['30'], { stdio: 'ignore' });
    const owner = ownerOf(ended.pid as number) as string;
    ended.kill('SIGKILL');
    await new Promise((resolve) => ended.once('exit', resolve));
    const envrc = path.join(root, '.envrc');
    // What the killed host left: a claim that stands on another call's mount point and created none.
    await fs.mkdir(registry, { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(registry, `active.${owner}.1.json`), JSON.stringify({ created: [], stands: [envrc] }), { mode: 0o600 });
    const ledger = new MountPointLedger(registry, { reaper: false });
    ledger.generation(); // the first use in a process recovers crashes, waiting out the grace period
    expect((await fs.readdir(registry)).filter((name) => name !== 'generation')).toEqual([]);
    ledger.registry.removeFolderIfEmpty();
    expect(await exists(registry)).toBe(false);
  });
});
