import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy, goBuildCacheEnvironment, packageCacheVariables } from '../index.js';
import { makeTempDirectory, requireBubblewrap, runWrapped } from '../bubblewrap/test-support/run-wrapped.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => fs.rm(root, { recursive: true, force: true })));
});

async function layout(): Promise<{ root: string; workspace: string; home: string; tmp: string }> {
  const root = await makeTempDirectory('ow-gocache-');
  roots.push(root);
  const [workspace, home, tmp] = ['ws', 'home', 'tmp'].map((name) => path.join(root, name)) as [string, string, string];
  await Promise.all([fs.mkdir(workspace), fs.mkdir(home), fs.mkdir(tmp)]);
  return { root, workspace, home, tmp };
}

describe('goBuildCacheEnvironment (spec §7.9 GOCACHE)', () => {
  it('points GOCACHE at a private folder in the temp root, which a sandboxed process can write', async () => {
    await requireBubblewrap();
    const { workspace, home, tmp } = await layout();
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [tmp] });
    const uid = process.getuid?.() ?? 0;
    const backend = new BubblewrapBackend();
    expect(backend.commandEnvironment(policy)).toEqual({ GOCACHE: path.join(tmp, `openwork-go-build-${uid}`), ...packageCacheVariables(path.join(tmp, `openwork-cache-${uid}`)) });
    const stats = await fs.lstat(path.join(tmp, `openwork-go-build-${uid}`));
    expect(stats.isDirectory() && (stats.mode & 0o777) === 0o700).toBe(true);
    // The default cache under home is not writable there; the one named by GOCACHE is.
    const cache = path.join(tmp, `openwork-go-build-${uid}`);
    const script = `mkdir -p ${home}/.cache/go-build 2>&1; echo entry > ${cache}/probe && cat ${cache}/probe`;
    const run = await runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', script], cwd: workspace }, policy), workspace);
    expect(run.stdout).toContain('Read-only file system');
    expect(run.stdout.trim().endsWith('entry')).toBe(true);
    expect(await fs.readFile(path.join(cache, 'probe'), 'utf8')).toBe('entry\n');
  });

  it('adds nothing where the default cache is writable, nothing is, or no temp root is writable', async () => {
    const { workspace, home, tmp } = await layout();
    const base = { workspaceRoots: [workspace], homeDirectory: home, tempRoots: [tmp] };
    expect(goBuildCacheEnvironment(createSandboxPolicy({ ...base, mode: 'full-access' }))).toEqual({});
    expect(goBuildCacheEnvironment(createSandboxPolicy({ ...base, mode: 'read-only' }))).toEqual({});
    expect(goBuildCacheEnvironment(createSandboxPolicy({ ...base, mode: 'workspace-write', tempRoots: [] }))).toEqual({});
    expect(await fs.readdir(tmp)).toEqual([]);
  });

  it('refuses a folder another user could have prepared: a link, open to others, or someone else\'s', async () => {
    const { root, workspace, home, tmp } = await layout();
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [tmp] });
    const uid = process.getuid?.() ?? 0;
    const cache = path.join(tmp, `openwork-go-build-${uid}`);
    // A link to a folder the attacker controls.
    await fs.mkdir(path.join(root, 'elsewhere'));
    await fs.symlink(path.join(root, 'elsewhere'), cache);
    expect(goBuildCacheEnvironment(policy)).toEqual({});
    await fs.unlink(cache);
    // A folder open to others.
    await fs.mkdir(cache, { mode: 0o777 });
    await fs.chmod(cache, 0o777);
    expect(goBuildCacheEnvironment(policy)).toEqual({});
    // Owned by another user (what this user would find when someone else created it first).
    await fs.chmod(cache, 0o700);
    expect(goBuildCacheEnvironment(policy, { uid: uid + 1 })).toEqual({});
    expect(goBuildCacheEnvironment(policy)).toEqual({ GOCACHE: cache });
  });
});
