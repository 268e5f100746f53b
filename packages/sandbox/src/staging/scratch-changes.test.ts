import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy } from '../index.js';
import { makeTempDirectory, refusedPaths, requireBubblewrap, runWrapped } from '../bubblewrap/test-support/run-wrapped.js';
import { scratchTest } from './apply-staged-writes.js';

// Writes below a temp root are scratch (docs/decisions/0103): applied and judged like any other
// staged write, but not listed or counted as the call's changes. Real bubblewrap.

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => fs.rm(root, { recursive: true, force: true })));
});

describe('scratch changes', () => {
  it('a write in the temp root reaches the host but is not a listed change; the workspace write is', async () => {
    await requireBubblewrap();
    const root = await makeTempDirectory('ow-scratch-');
    roots.push(root);
    const [workspace, home, tmp] = ['ws', 'home', 'tmp'].map((name) => path.join(root, name)) as [string, string, string];
    await Promise.all([fs.mkdir(workspace), fs.mkdir(home), fs.mkdir(tmp)]);
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [tmp] });
    const script = [
      `mkdir -p ${tmp}/node-compile-cache/v24 && head -c 300 /dev/urandom > ${tmp}/node-compile-cache/v24/blob`,
      `echo kept > ${workspace}/out.txt`,
      // Still judged: a hook in a repository below the temp root is refused as anywhere else.
      `git init -q ${tmp}/repo && printf '#!/bin/sh\\necho hooked\\n' > ${tmp}/repo/.git/hooks/pre-commit && chmod +x ${tmp}/repo/.git/hooks/pre-commit`,
    ].join(' && ');
    const run = await runWrapped(new BubblewrapBackend().wrap({ argv: ['/bin/bash', '-c', script], cwd: workspace }, policy), workspace);
    expect(await fs.readFile(path.join(workspace, 'out.txt'), 'utf8')).toBe('kept\n');
    expect((await fs.stat(path.join(tmp, 'node-compile-cache', 'v24', 'blob'))).size).toBe(300);
    expect(run.staged?.changes.map((change) => change.path)).toEqual([path.join(workspace, 'out.txt')]);
    expect(run.staged?.counts).toEqual({ created: 1, modified: 0, deleted: 0 });
    expect(run.staged?.scratchChanges).toBeGreaterThanOrEqual(3);
    expect(refusedPaths(run)).toContain(path.join(tmp, 'repo', '.git', 'hooks', 'pre-commit'));
    await expect(fs.stat(path.join(tmp, 'repo', '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
  });

  it('the most specific root decides: a workspace inside the temp root is not scratch, a temp folder inside the workspace is', () => {
    const inside = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: ['/tmp'], homeDirectory: '/home/u', tempRoots: ['/tmp'] });
    expect(scratchTest(inside)('/tmp/x')).toBe(true);
    const nested = { ...inside, workspaceRoots: ['/tmp/project'], tempRoots: ['/tmp', '/tmp/project/.tmp'] } as typeof inside;
    const isScratch = scratchTest(nested);
    expect(isScratch('/tmp/project/src/a.ts')).toBe(false);
    expect(isScratch('/tmp/project/.tmp/cache')).toBe(true);
    expect(isScratch('/tmp/other/file')).toBe(true);
    expect(isScratch('/tmp/projectile/file')).toBe(true);
    expect(scratchTest({ ...nested, tempRoots: [] })('/tmp/other/file')).toBe(false);
  });
});
