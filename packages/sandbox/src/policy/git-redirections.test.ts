import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccess, createSandboxPolicy, deriveSandboxLayout } from '../index.js';
import type { SandboxMode, SandboxPolicy } from '../index.js';

// Architecture §3.2 tier 3: every file through which git decides what code to run is protected,
// by the fence and (through the same layout) by Seatbelt and bubblewrap. Read when the policy is built.

let root: string;
let home: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-git-redirect-')));
  home = path.join(root, 'home');
  await fs.mkdir(home);
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
  });
}

async function repository(directory: string): Promise<void> {
  await fs.mkdir(directory, { recursive: true });
  await fs.writeFile(path.join(directory, 'a.txt'), 'a\n');
  git(directory, 'init', '-q', '-b', 'main');
  git(directory, 'add', '.');
  git(directory, 'commit', '-q', '-m', 'first');
}

function policyFor(workspace: string, mode: SandboxMode = 'workspace-write', homeDirectory = home): SandboxPolicy {
  return createSandboxPolicy({ mode, workspaceRoots: [workspace], homeDirectory, tempRoots: [] });
}

function writable(policy: SandboxPolicy, target: string): boolean {
  return checkAccess(policy, target, 'write', 'process').allowed;
}

describe('git redirections (architecture §3.2)', () => {
  it('protects .git/commondir, config.worktree and worktrees/ (also missing) besides config and hooks, and nothing else of .git', async () => {
    const repo = path.join(root, 'plain');
    await repository(repo);
    for (const mode of ['workspace-write', 'full-access'] as const) {
      const policy = policyFor(repo, mode);
      for (const name of ['.git/config', '.git/hooks/pre-commit', '.git/commondir', '.git/config.worktree', '.git/worktrees', '.git/worktrees/x/commondir']) {
        expect(checkAccess(policy, path.join(repo, name), 'write', 'process'), `${mode} ${name}`).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true });
      }
      for (const name of ['.git/index', '.git/index.lock', '.git/HEAD', '.git/objects/ab/cd', '.git/refs/heads/main', '.git/COMMIT_EDITMSG', '.git/config.lock', 'a.txt']) {
        expect(writable(policy, path.join(repo, name)), `${mode} ${name}`).toBe(true);
      }
    }
    // Below every root, like the other root entries, so also in a root without a repository yet.
    const fresh = path.join(root, 'fresh');
    await fs.mkdir(fresh);
    expect(writable(policyFor(fresh), path.join(fresh, '.git/commondir'))).toBe(false);
  });

  it('a .git file (linked worktree): the pointer itself, the git directory it names and the common directory behind it', async () => {
    const main = path.join(root, 'wt-main');
    await repository(main);
    const linked = path.join(root, 'wt-linked');
    git(main, 'worktree', 'add', '-q', linked);
    const gitDirectory = path.join(main, '.git/worktrees/wt-linked');
    const policy = policyFor(linked, 'full-access');
    const layout = deriveSandboxLayout(policy);
    expect(layout.readOnly).toContainEqual({ path: path.join(linked, '.git'), scope: 'exact' });
    for (const target of [
      path.join(linked, '.git'),
      path.join(gitDirectory, 'commondir'),
      path.join(gitDirectory, 'config.worktree'),
      path.join(main, '.git/config'),
      path.join(main, '.git/hooks/post-checkout'),
      path.join(main, '.git/commondir'),
    ]) {
      expect(writable(policy, target), target).toBe(false);
    }
    // The linked worktree's own state lives below the protected worktrees/ too (README known limits);
    // the objects and the work tree stay writable.
    expect(writable(policy, path.join(gitDirectory, 'index.lock'))).toBe(false);
    for (const target of [path.join(main, '.git/objects/ab/cd'), path.join(main, '.git/refs/heads/x'), path.join(linked, 'a.txt')]) {
      expect(writable(policy, target), target).toBe(true);
    }
    // And from the main repository, the linked worktree's pointer (worktrees/<name>/gitdir names it).
    expect(writable(policyFor(main, 'full-access'), path.join(linked, '.git'))).toBe(false);
  });

  it('a .git that is a symbolic link: the link itself, not the folder behind it', async () => {
    const store = path.join(root, 'link-store');
    await repository(store);
    const checkout = path.join(root, 'link-checkout');
    await fs.mkdir(checkout);
    await fs.symlink(path.join(store, '.git'), path.join(checkout, '.git'));
    const policy = policyFor(checkout, 'full-access');
    expect(deriveSandboxLayout(policy).readOnly).toContainEqual({ path: path.join(checkout, '.git'), scope: 'exact' });
    expect(writable(policy, path.join(checkout, '.git'))).toBe(false);
    expect(writable(policy, path.join(store, '.git/config'))).toBe(false);
    expect(writable(policy, path.join(store, '.git/index.lock'))).toBe(true);
  });

  it('submodules: each module git directory and the .git file of its work tree', async () => {
    const library = path.join(root, 'sub-library');
    await repository(library);
    const superproject = path.join(root, 'sub-super');
    await repository(superproject);
    git(superproject, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', library, 'lib');
    const policy = policyFor(superproject);
    for (const target of [
      path.join(superproject, 'lib/.git'),
      path.join(superproject, '.git/modules/lib/config'),
      path.join(superproject, '.git/modules/lib/hooks/pre-commit'),
      path.join(superproject, '.git/modules/lib/commondir'),
    ]) {
      expect(writable(policy, target), target).toBe(false);
    }
    // `.git/modules` is protected whole (git submodule update takes a module directory as it finds
    // it): work inside a submodule's git directory needs a grant, as for `.git/hooks`.
    expect(writable(policy, path.join(superproject, '.git/modules/lib/index'))).toBe(false);
    expect(writable(policy, path.join(superproject, '.git/modules/planted/config'))).toBe(false);
    expect(writable(policy, path.join(superproject, 'lib/a.txt'))).toBe(true);
    const granted = createSandboxPolicy({
      workspaceRoots: [superproject],
      homeDirectory: home,
      tempRoots: [],
      grants: [{ path: path.join(superproject, '.git/modules/lib'), access: 'write', scope: 'subtree' }],
    });
    expect(writable(granted, path.join(superproject, '.git/modules/lib/index'))).toBe(true);
    expect(writable(granted, path.join(superproject, '.git/modules/other/config'))).toBe(false);
  });

  it('core.hooksPath (relative to the work tree, husky’s _ and its parent, ~/…) and include.path / includeIf paths, followed', async () => {
    const repo = path.join(root, 'hooks-path');
    await repository(repo);
    await fs.writeFile(path.join(repo, 'project.gitconfig'), '[include]\n\tpath = nested.gitconfig\n');
    git(repo, 'config', 'core.hooksPath', '.husky/_');
    git(repo, 'config', 'include.path', '../project.gitconfig');
    git(repo, 'config', 'includeIf.gitdir:/nowhere/.path', '~/conditional.gitconfig');
    await fs.writeFile(path.join(home, '.gitconfig'), '[core]\n\thooksPath = ~/global-hooks\n[include]\n\tpath = .gitconfig.local\n');
    const policy = policyFor(repo);
    for (const target of [
      path.join(repo, '.husky/_/pre-commit'),
      path.join(repo, '.husky/pre-commit'),
      path.join(repo, 'project.gitconfig'),
      path.join(repo, 'nested.gitconfig'),
      path.join(home, 'conditional.gitconfig'),
      path.join(home, 'global-hooks/pre-push'),
      path.join(home, '.gitconfig.local'),
    ]) {
      expect(writable(policyFor(repo, 'full-access'), target), target).toBe(false);
    }
    expect(writable(policy, path.join(repo, '.husky-not/x'))).toBe(true);
    expect(writable(policy, path.join(repo, 'src/index.ts'))).toBe(true);
    await fs.rm(path.join(home, '.gitconfig'));
  });

  it('a root inside a repository: that repository’s config and hooks run for git in the root', async () => {
    const outer = path.join(root, 'outer');
    await repository(outer);
    const packageRoot = path.join(outer, 'packages/app');
    await fs.mkdir(packageRoot, { recursive: true });
    const policy = policyFor(packageRoot, 'full-access');
    expect(writable(policy, path.join(outer, '.git/config'))).toBe(false);
    expect(writable(policy, path.join(outer, '.git/hooks/pre-commit'))).toBe(false);
    expect(writable(policy, path.join(outer, '.git/index'))).toBe(true);
  });

  it('hostile repository contents never make policy creation throw or wander', async () => {
    const hostile = path.join(root, 'hostile');
    await fs.mkdir(path.join(hostile, 'sub'), { recursive: true });
    await fs.writeFile(path.join(hostile, '.git'), 'gitdir: /nowhere/\0evil\n');
    await fs.writeFile(path.join(hostile, 'sub/.git'), 'not a git file');
    const looping = path.join(root, 'looping');
    await repository(looping);
    await fs.writeFile(path.join(looping, 'a.gitconfig'), '[include]\n\tpath = b.gitconfig\n');
    await fs.writeFile(path.join(looping, 'b.gitconfig'), '[include]\n\tpath = a.gitconfig\n[core]\n\thooksPath = ~other/hooks\n');
    await fs.appendFile(path.join(looping, '.git/config'), '[include]\n\tpath = ../a.gitconfig\n');
    await fs.writeFile(path.join(looping, '.git/commondir'), '.\n');
    for (const workspace of [hostile, looping]) {
      const policy = policyFor(workspace);
      expect(policy.gitRedirections.every((entry) => entry.path.startsWith('/') && !entry.path.includes('\0'))).toBe(true);
    }
    expect(writable(policyFor(hostile), path.join(hostile, '.git'))).toBe(false);
    expect(writable(policyFor(looping), path.join(looping, 'b.gitconfig'))).toBe(false);
  });
});

describe('protected names through symbolic links (architecture §3.2)', () => {
  it('every link of a chain and a dangling link’s missing target are protected like the name', async () => {
    const linkHome = path.join(root, 'chain-home');
    await fs.mkdir(path.join(linkHome, 'dotfiles/current'), { recursive: true });
    await fs.mkdir(path.join(linkHome, 'repo'));
    await fs.writeFile(path.join(linkHome, 'repo/bashrc'), '# bashrc\n');
    await fs.symlink('../../repo/bashrc', path.join(linkHome, 'dotfiles/current/bashrc'));
    await fs.symlink('dotfiles/current/bashrc', path.join(linkHome, '.bashrc'));
    await fs.symlink('dotfiles/profile', path.join(linkHome, '.profile'));
    const policy = createSandboxPolicy({ mode: 'full-access', workspaceRoots: [linkHome], homeDirectory: linkHome, tempRoots: [] });
    for (const target of [
      path.join(linkHome, '.bashrc'),
      path.join(linkHome, 'dotfiles/current/bashrc'),
      path.join(linkHome, 'repo/bashrc'),
      path.join(linkHome, '.profile'),
      path.join(linkHome, 'dotfiles/profile'),
    ]) {
      expect(checkAccess(policy, target, 'write', 'process'), target).toMatchObject({ allowed: false, tier: 'sensitive' });
    }
    expect(writable(policy, path.join(linkHome, 'dotfiles/other'))).toBe(true);
  });

  it('a temp root that is no repository: its `.git` and `HEAD` are protected whole; a workspace root\'s own `.git` stays open to git init', async () => {
    const temp = path.join(root, 'shared-temp');
    const workspace = path.join(root, 'not-a-repo');
    await fs.mkdir(temp, { recursive: true });
    await fs.mkdir(workspace, { recursive: true });
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [temp] });
    for (const name of ['.git', '.git/x', '.git/objects/ab', 'HEAD']) expect(writable(policy, path.join(temp, name)), name).toBe(false);
    expect(writable(policy, path.join(temp, 'scratch.txt'))).toBe(true);
    for (const name of ['.git/HEAD', '.git/objects/ab', '.git/refs/heads/main']) expect(writable(policy, path.join(workspace, name)), name).toBe(true);
    // A temp root that is the workspace root itself is a workspace: git init works there.
    const same = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [workspace] });
    expect(writable(same, path.join(workspace, '.git/HEAD'))).toBe(true);
  });

  it('a `.git` folder that is no repository above a workspace root (another process\'s placeholder, say) is protected whole', async () => {
    const parent = path.join(root, 'parent-with-empty-git');
    const workspace = path.join(parent, 'ws');
    await fs.mkdir(path.join(parent, '.git'), { recursive: true });
    await fs.mkdir(workspace, { recursive: true });
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [parent] });
    for (const name of ['.git/x', '.git/HEAD', '.git/objects', 'HEAD']) expect(writable(policy, path.join(parent, name)), name).toBe(false);
  });
});
