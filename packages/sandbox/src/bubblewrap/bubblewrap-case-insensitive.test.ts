import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, SandboxUnavailableError, createSandboxPolicy, deriveSandboxLayout } from '../index.js';
import { mountCaseInsensitiveVolume } from '../policy/test-support/case-insensitive-volume.js';
import { findCaseFoldingFolder } from './find-case-folding-folder.js';
import { MountPointLedger } from './mount-point-ledger.js';
import { requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';
import { wrapWithBubblewrap } from './wrap-with-bubblewrap.js';

describe('findCaseFoldingFolder', () => {
  it('asks about the folders that hold protected entries, and answers with the first that folds case', () => {
    const policy = createSandboxPolicy({ workspaceRoots: ['/ws'], homeDirectory: '/home/u', tempRoots: [], letterCase: 'sensitive' });
    const asked: string[] = [];
    expect(findCaseFoldingFolder(deriveSandboxLayout(policy), (folder) => (asked.push(folder), false))).toBeUndefined();
    expect(asked).toEqual(['/ws', '/ws/.git']);
    expect(findCaseFoldingFolder(deriveSandboxLayout(policy), (folder) => folder === '/ws/.git')).toBe('/ws/.git');
  });
});

const mounted = mountCaseInsensitiveVolume();
const volume = 'volume' in mounted ? mounted.volume : undefined;
const skipReason = 'unavailable' in mounted ? ` — SKIPPED: ${mounted.unavailable}` : '';
afterAll(() => volume?.unmount());

describe.skipIf(volume === undefined)(`bubblewrap on a real case-insensitive volume (loop-mounted exFAT)${skipReason}`, () => {
  let ws: string;
  let home: string;

  beforeAll(async () => {
    await requireBubblewrap();
    const base = (volume as { path: string }).path;
    ws = path.join(base, 'ws');
    home = path.join(base, 'home');
    await fs.mkdir(path.join(ws, '.git/hooks'), { recursive: true });
    await fs.writeFile(path.join(ws, '.git/hooks/pre-commit'), '#!/bin/sh\n');
    await fs.mkdir(home);
  });

  it('why: a read-only mount on .git/hooks does not cover .GIT/HOOKS there — the write lands in the real hook', async () => {
    // The registry beside the volume: exFAT has no owners or modes, so it could not be private there.
    const registry = `${(volume as { path: string }).path}-registry`;
    const policy = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [] });
    // The mounts alone, without the backend's refusal: what bubblewrap would do on this volume.
    const wrapped = wrapWithBubblewrap('/usr/bin/bwrap', { argv: ['/bin/bash', '-c', 'echo evil > .GIT/HOOKS/pre-commit; echo fine > .git/hooks/pre-commit'], cwd: ws }, deriveSandboxLayout(policy), new MountPointLedger(registry, { reaper: false }));
    const run = await runWrapped(wrapped, ws);
    expect(run.stderr).toMatch(/\.git\/hooks\/pre-commit: Read-only file system/);
    expect(await fs.readFile(path.join(ws, '.git/hooks/pre-commit'), 'utf8')).toBe('evil\n');
    await fs.writeFile(path.join(ws, '.git/hooks/pre-commit'), '#!/bin/sh\n');
    await fs.rm(registry, { recursive: true, force: true });
  });

  it('so BubblewrapBackend refuses such a session (sandbox_unavailable) instead of running it half-protected', () => {
    const policy = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [] });
    expect(policy.letterCase).toBe('insensitive');
    const backend = new BubblewrapBackend();
    let thrown: unknown;
    try {
      backend.wrap({ argv: ['/bin/true'], cwd: ws }, policy);
    } catch (error) {
      thrown = error;
    }
    expect(SandboxUnavailableError.isInstance(thrown)).toBe(true);
    expect((thrown as SandboxUnavailableError).reason).toBe(
      `bubblewrap cannot protect this session: ${ws} is on a case-insensitive file system, where a protected name can be reached under another spelling (.GIT/HOOKS for .git/hooks) that a mount does not cover. Use a case-sensitive file system for the workspace.`,
    );
  });
});
