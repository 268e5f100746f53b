import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectSandboxBackend, type SandboxAvailability, type SandboxBackend } from '@openwork/core';

/** The Linux backend, through core (architecture §1: the CLI depends on core only), with another bwrap if given. */
function bubblewrapBackend(bwrapPath?: string): SandboxBackend & { readonly bwrapPath: string } {
  return selectSandboxBackend({ platform: 'linux', ...(bwrapPath === undefined ? {} : { bubblewrap: { bwrapPath } }) }) as SandboxBackend & { readonly bwrapPath: string };
}
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REMEMBERED_CHECK_MS, RememberedSandboxCheck, rememberedCheckFile } from './remembered-sandbox-check.js';

// Start-up: the bubblewrap self-check remembered for an hour, with the real bwrap (copied, so a
// test can replace it) and the real self-check. `Counted` only counts the real backend's checks.

class Counted implements SandboxBackend {
  readonly kind: SandboxBackend['kind'];
  readonly bwrapPath: string;
  checks = 0;
  readonly #backend: SandboxBackend;
  constructor(backend: SandboxBackend & { readonly bwrapPath: string }) {
    this.#backend = backend;
    this.kind = backend.kind;
    this.bwrapPath = backend.bwrapPath;
  }
  selfCheck(): Promise<SandboxAvailability> {
    this.checks += 1;
    return this.#backend.selfCheck();
  }
  wrap(...args: Parameters<SandboxBackend['wrap']>) {
    return this.#backend.wrap(...args);
  }
}

let root: string;
let bwrap: string;
let file: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'openwork-remembered-check-')));
  bwrap = join(root, 'bwrap');
  await copyFile(bubblewrapBackend().bwrapPath, bwrap);
  await chmod(bwrap, 0o755);
  file = rememberedCheckFile(root);
});
afterEach(async () => rm(root, { recursive: true, force: true }));

const counted = () => new Counted(bubblewrapBackend(bwrap));

describe('the remembered bubblewrap self-check', () => {
  it('a forged record cannot disable the sandbox or hang start-up: a FIFO, a folder or text that does not parse is removed, said, and the check runs', async () => {
    const forgeries: Array<[string, () => Promise<void>]> = [
      ['a FIFO', async () => void spawnSync('mkfifo', [file])],
      ['a folder', async () => void (await mkdir(join(file, 'inside'), { recursive: true }))],
      ['text that does not parse', async () => writeFile(file, '{"key": [')],
      ['a record of another shape', async () => writeFile(file, '{"key": 1, "passedAt": "now"}\n')],
    ];
    for (const [what, forge] of forgeries) {
      await forge();
      const warnings: string[] = [];
      const backend = counted();
      expect(await new RememberedSandboxCheck(backend, file, Date.now, (text) => warnings.push(text)).selfCheck(), what).toEqual({ available: true });
      expect(backend.checks, what).toBe(1);
      expect(warnings, what).toEqual([expect.stringMatching(new RegExp(`^openwork: ignored ${file}: .*; it was removed and the sandbox self-check runs again$`))]);
      // Repaired: the next process reads a record again.
      const next = counted();
      expect(await new RememberedSandboxCheck(next, file, Date.now, () => undefined).selfCheck(), what).toEqual({ available: true });
      expect(next.checks, what).toBe(0);
      await rm(file, { recursive: true, force: true });
    }
  }, 60_000);

  it('a pass is remembered: the next process with the same bwrap and machine skips the bwrap run', async () => {
    const first = counted();
    expect(await new RememberedSandboxCheck(first, file).selfCheck()).toEqual({ available: true });
    expect(first.checks).toBe(1);
    const second = counted();
    expect(await new RememberedSandboxCheck(second, file).selfCheck()).toEqual({ available: true });
    expect(second.checks).toBe(0);
  });

  it('after an hour, or with a damaged file, the check runs again', async () => {
    const start = Date.now();
    await new RememberedSandboxCheck(counted(), file, () => start).selfCheck();
    const later = counted();
    await new RememberedSandboxCheck(later, file, () => start + REMEMBERED_CHECK_MS).selfCheck();
    expect(later.checks).toBe(1);
    for (const text of ['{not json', '{}', JSON.stringify({ key: 'other', passedAt: Date.now() })]) {
      await writeFile(file, text);
      const backend = counted();
      expect(await new RememberedSandboxCheck(backend, file).selfCheck()).toEqual({ available: true });
      expect(backend.checks, text).toBe(1);
    }
  });

  it('a bwrap replaced after a pass is checked again, and its failure is live and not remembered', async () => {
    await new RememberedSandboxCheck(counted(), file).selfCheck();
    await rm(bwrap);
    await writeFile(bwrap, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    for (let run = 0; run < 2; run += 1) {
      const backend = counted();
      const availability = await new RememberedSandboxCheck(backend, file).selfCheck();
      expect(availability.available).toBe(false);
      expect(availability.available ? '' : availability.reason).toContain('No permissions to create new namespace');
      expect(backend.checks).toBe(1);
    }
    await expect(readFile(file, 'utf8')).rejects.toThrow();
  });

  it('a missing bwrap is never remembered: every check runs and says how to install it', async () => {
    await rm(bwrap);
    const backend = counted();
    const availability = await new RememberedSandboxCheck(backend, file).selfCheck();
    expect(availability.available ? '' : availability.reason).toContain('apt-get install bubblewrap');
    expect(backend.checks).toBe(1);
    await expect(readFile(file, 'utf8')).rejects.toThrow();
  });


  it('two processes checking at once both pass and leave one readable file, nothing beside it', async () => {
    const backends = [counted(), counted()];
    const results = await Promise.all(backends.map((backend) => new RememberedSandboxCheck(backend, file).selfCheck()));
    expect(results).toEqual([{ available: true }, { available: true }]);
    expect((await readdir(root)).sort()).toEqual(['bwrap', 'sandbox-check.json']);
    const next = counted();
    await new RememberedSandboxCheck(next, file).selfCheck();
    expect(next.checks).toBe(0);
  });

  it('a link planted at the file is not followed: its target is untouched and the check still passes', async () => {
    const target = join(root, 'target.txt');
    await writeFile(target, 'keep\n');
    await symlink(target, file);
    expect(await new RememberedSandboxCheck(counted(), file).selfCheck()).toEqual({ available: true });
    expect(await readFile(target, 'utf8')).toBe('keep\n');
  });
});
