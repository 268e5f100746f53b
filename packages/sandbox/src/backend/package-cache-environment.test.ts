import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BubblewrapBackend, createSandboxPolicy, packageCacheEnvironment } from '../index.js';
import { makeTempDirectory, requireBubblewrap, runWrapped } from '../bubblewrap/test-support/run-wrapped.js';

// Package managers' caches in a private folder of the temp root (docs/decisions/0103).

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => fs.rm(root, { recursive: true, force: true })));
});

async function layout(): Promise<{ root: string; workspace: string; home: string; tmp: string }> {
  const root = await makeTempDirectory('ow-pkgcache-');
  roots.push(root);
  const [workspace, home, tmp] = ['ws', 'home', 'tmp'].map((name) => path.join(root, name)) as [string, string, string];
  await Promise.all([fs.mkdir(workspace), fs.mkdir(home), fs.mkdir(tmp)]);
  return { root, workspace, home, tmp };
}

describe('packageCacheEnvironment', () => {
  it('points npm, pnpm, yarn, pip, cargo and Go modules at a private folder a sandboxed process can write; home stays closed', async () => {
    await requireBubblewrap();
    const { workspace, home, tmp } = await layout();
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [tmp] });
    const uid = process.getuid?.() ?? 0;
    const cache = path.join(tmp, `openwork-cache-${uid}`);
    const environment = packageCacheEnvironment(policy);
    expect(environment).toEqual({
      npm_config_cache: `${cache}/npm`,
      pnpm_config_store_dir: `${cache}/pnpm-store`,
      pnpm_config_cache_dir: `${cache}/pnpm-cache`,
      pnpm_config_state_dir: `${cache}/pnpm-state`,
      YARN_CACHE_FOLDER: `${cache}/yarn`,
      PIP_CACHE_DIR: `${cache}/pip`,
      CARGO_HOME: `${cache}/cargo`,
      GOMODCACHE: `${cache}/go-mod`,
    });
    const stats = await fs.lstat(cache);
    expect(stats.isDirectory() && (stats.mode & 0o777) === 0o700).toBe(true);
    const backend = new BubblewrapBackend();
    const script = `mkdir -p ${home}/.npm/_cacache 2>&1; mkdir -p "$npm_config_cache/_cacache" && echo entry > "$npm_config_cache/_cacache/probe" && cat "$npm_config_cache/_cacache/probe"`;
    const wrapped = await backend.wrap({ argv: ['/usr/bin/env', ...Object.entries(environment).map(([name, value]) => `${name}=${value}`), '/bin/bash', '-c', script], cwd: workspace }, policy);
    const run = await runWrapped(wrapped, workspace);
    expect(run.stdout).toMatch(/Read-only file system|No such file or directory|Permission denied/);
    expect(run.stdout.trim().endsWith('entry')).toBe(true);
    expect(await fs.readFile(path.join(cache, 'npm', '_cacache', 'probe'), 'utf8')).toBe('entry\n');
    await expect(fs.stat(path.join(home, '.npm'))).rejects.toThrow();
  });

  it('adds nothing outside workspace-write, without a writable temp root, or where another user could have prepared the folder', async () => {
    const { root, workspace, home, tmp } = await layout();
    const base = { workspaceRoots: [workspace], homeDirectory: home, tempRoots: [tmp] };
    expect(packageCacheEnvironment(createSandboxPolicy({ ...base, mode: 'full-access' }))).toEqual({});
    expect(packageCacheEnvironment(createSandboxPolicy({ ...base, mode: 'read-only' }))).toEqual({});
    expect(packageCacheEnvironment(createSandboxPolicy({ ...base, mode: 'workspace-write', tempRoots: [] }))).toEqual({});
    expect(await fs.readdir(tmp)).toEqual([]);
    const policy = createSandboxPolicy({ ...base, mode: 'workspace-write' });
    const cache = path.join(tmp, `openwork-cache-${process.getuid?.() ?? 0}`);
    await fs.mkdir(path.join(root, 'elsewhere'));
    await fs.symlink(path.join(root, 'elsewhere'), cache);
    expect(packageCacheEnvironment(policy)).toEqual({});
    await fs.unlink(cache);
    await fs.mkdir(cache, { mode: 0o777 });
    await fs.chmod(cache, 0o777);
    expect(packageCacheEnvironment(policy)).toEqual({});
  });
});
