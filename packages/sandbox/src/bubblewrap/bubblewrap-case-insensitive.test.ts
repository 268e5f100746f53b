import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy } from '../index.js';
import { mountCaseInsensitiveVolume } from '../policy/test-support/case-insensitive-volume.js';
import { requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

// A protected name reached under another spelling (.GIT/HOOKS for .git/hooks) on a folder that
// folds case: staged writes judge the path the command wrote in the layout's letter case, so the
// spelling does not matter (architecture §3.10).

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

  it('a write to .GIT/HOOKS/pre-commit is refused like one to .git/hooks/pre-commit; the hook keeps its content', async () => {
    // The OpenWork home off the volume: exFAT has no owners or modes, so no helper could be trusted there.
    const openworkHome = await fs.mkdtemp(path.join(os.tmpdir(), 'ow-casefold-home-'));
    const policy = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [], openworkHome });
    expect(policy.letterCase).toBe('insensitive');
    const backend = new BubblewrapBackend();
    const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', 'echo evil > .GIT/HOOKS/pre-commit; echo fine > notes.txt'], cwd: ws }, policy);
    const run = await runWrapped(wrapped, ws);
    expect(run.code).toBe(0);
    expect(await fs.readFile(path.join(ws, '.git/hooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\n');
    expect(await fs.readFile(path.join(ws, 'notes.txt'), 'utf8')).toBe('fine\n');
    expect(run.staged?.refused.map((refusal) => refusal.path.toLowerCase())).toEqual([path.join(ws, '.git/hooks/pre-commit').toLowerCase()]);
    await fs.rm(openworkHome, { recursive: true, force: true });
  });
});
