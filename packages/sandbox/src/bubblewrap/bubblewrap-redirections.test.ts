import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, SandboxUnavailableError, checkAccess, createSandboxPolicy } from '../index.js';
import type { PathGrant, SandboxMode, SandboxPolicy } from '../index.js';
import { listTree, makeTempDirectory, refusedPaths, requireBubblewrap, runWrapped } from './test-support/run-wrapped.js';

// The three ways git can be sent to a config of the command's, tried from inside a sandboxed `bash -c` as an attacker would, on
// the real bubblewrap: each must now fail, and the fence must say the same (architecture §3.2).

const backend = new BubblewrapBackend();
const identity = '-c user.email=agent@example.com -c user.name=agent';
let scratch: string;

beforeAll(async () => {
  await requireBubblewrap();
  scratch = await makeTempDirectory('ow-bwrap-redirect-');
});

afterAll(async () => {
  if (scratch !== undefined) await fs.rm(scratch, { recursive: true, force: true });
});

/** A fresh home, workspace and temp root per test, so that no test sees another's links. */
async function fixture(name: string): Promise<{ home: string; workspace: string; temp: string; base: string }> {
  const base = path.join(scratch, name);
  const home = path.join(base, 'home');
  const workspace = path.join(base, 'ws');
  const temp = path.join(base, 'tmp');
  for (const directory of [home, workspace, temp]) await fs.mkdir(directory, { recursive: true });
  return { home, workspace, temp, base };
}

function policyFor(
  parts: { home: string; workspace: string; temp: string },
  mode: SandboxMode,
  options: { grants?: readonly PathGrant[]; workspaceRoots?: readonly string[] } = {},
): SandboxPolicy {
  return createSandboxPolicy({
    mode,
    workspaceRoots: options.workspaceRoots ?? [parts.workspace],
    homeDirectory: parts.home,
    tempRoots: [parts.temp],
    grants: options.grants ?? [],
  });
}

async function bash(script: string, policy: SandboxPolicy, cwd: string) {
  return runWrapped(backend.wrap({ argv: ['/bin/bash', '-c', script], cwd }, policy), cwd);
}

/** git on the host, as the user runs it later (their editor polls `git status`), never the real home. */
function hostGit(cwd: string, home: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(() => true, () => false);
}

async function readOrNull(file: string): Promise<string | null> {
  return fs.readFile(file, 'utf8').catch(() => null);
}

async function repository(directory: string, home: string): Promise<void> {
  await fs.mkdir(directory, { recursive: true });
  await fs.writeFile(path.join(directory, 'a.txt'), 'a\n');
  hostGit(directory, home, 'init', '-q', '-b', 'main');
  hostGit(directory, home, 'add', '.');
  hostGit(directory, home, ...identity.split(' '), 'commit', '-q', '-m', 'first');
}

describe('bypass 1: git config and hooks redirected through .git', () => {
  it('a command cannot point .git/commondir (or config.worktree, worktrees/) at a config of its own, in workspace-write and full-access', async () => {
    const parts = await fixture('commondir');
    await repository(parts.workspace, parts.home);
    const marker = path.join(parts.base, 'pwned');
    // The attack: a copy of the repository with a config that runs a command on `git status`.
    const attack = [
      'mkdir -p evil && cp -r .git/HEAD .git/objects .git/refs evil/',
      `printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' > evil/config`,
      'echo ../evil > .git/commondir',
      `printf '[core]\\n\\tfsmonitor = "touch ${marker}"\\n' > .git/config.worktree`,
      'mkdir -p .git/worktrees/x && echo ../../../evil > .git/worktrees/x/commondir',
      'echo done',
    ].join('; ');
    for (const mode of ['workspace-write', 'full-access'] as const) {
      const policy = policyFor(parts, mode);
      for (const name of ['.git/commondir', '.git/config.worktree', '.git/worktrees/x/commondir']) {
        expect(checkAccess(policy, path.join(parts.workspace, name), 'write', 'process').allowed, `${mode} ${name}`).toBe(false);
      }
      const result = await bash(attack, policy, parts.workspace);
      expect(result.stdout).toBe('done\n');
      if (result.staged === undefined) {
        // full-access: the mount-per-name renderer refuses inside.
        expect(result.stderr).toMatch(/\.git\/commondir: Read-only file system/);
        expect(result.stderr).toMatch(/\.git\/config\.worktree: Read-only file system/);
      } else {
        // Staged writes: refused at release() and reported.
        expect(refusedPaths(result)).toEqual(expect.arrayContaining(['.git/commondir', '.git/config.worktree', '.git/worktrees'].map((name) => path.join(parts.workspace, name))));
      }
      expect(await exists(path.join(parts.workspace, '.git/commondir'))).toBe(false);
      expect(await exists(path.join(parts.workspace, '.git/config.worktree'))).toBe(false);
      expect(await exists(path.join(parts.workspace, '.git/worktrees'))).toBe(false);
      hostGit(parts.workspace, parts.home, 'status', '--short');
      expect(await exists(marker)).toBe(false);
      await fs.rm(path.join(parts.workspace, 'evil'), { recursive: true, force: true });
    }
  });

  it('git add and git commit keep working in an existing repository without grants, while the redirections are mounted', async () => {
    const parts = await fixture('commit');
    await repository(parts.workspace, parts.home);
    const before = await listTree(path.join(parts.workspace, '.git'));
    const result = await bash(
      `echo b > b.txt && git add . && git ${identity} commit -q -m second && git status --short && git log --oneline | wc -l && git worktree list | wc -l`,
      policyFor(parts, 'workspace-write'),
      parts.workspace,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('2\n1\n');
    expect(hostGit(parts.workspace, parts.home, 'log', '--format=%s')).toBe('second\nfirst\n');
    // The mount points (a `.` commondir, an empty config.worktree, an empty worktrees/) are gone again.
    const after = await listTree(path.join(parts.workspace, '.git'));
    expect(after.filter((line) => /commondir|config\.worktree|worktrees/.test(line))).toEqual([]);
    expect(after.length).toBeGreaterThan(before.length); // the new objects and refs of the commit
  });

  it('git init works with grants on .git/config and .git/hooks, then add/commit without grants, and nothing is left behind', async () => {
    const parts = await fixture('init');
    const config = path.join(parts.workspace, '.git/config');
    const hooks = path.join(parts.workspace, '.git/hooks');
    await fs.writeFile(path.join(parts.workspace, 'a.txt'), 'a\n');
    const grants: PathGrant[] = [
      { path: config, access: 'write', scope: 'exact' },
      { path: hooks, access: 'write', scope: 'subtree' },
    ];
    const init = await bash(`git init -q && git add . && git ${identity} commit -q -m first`, policyFor(parts, 'workspace-write', { grants }), parts.workspace);
    expect(init.stderr).toBe('');
    const next = await bash(`echo b > b.txt && git add b.txt && git ${identity} commit -q -m second && git log --oneline | wc -l`, policyFor(parts, 'workspace-write'), parts.workspace);
    expect(next.stderr).toBe('');
    expect(next.stdout.trim()).toBe('2');
    const tree = await listTree(path.join(parts.workspace, '.git'));
    expect(tree.filter((line) => /commondir|config\.worktree|worktrees/.test(line))).toEqual([]);
    expect(hostGit(parts.workspace, parts.home, 'status', '--short')).toBe('');
  });

  it('the core.hooksPath folder (husky) and included configuration files are protected like .git/hooks', async () => {
    const parts = await fixture('hooks-path');
    await repository(parts.workspace, parts.home);
    await fs.mkdir(path.join(parts.workspace, '.husky/_'), { recursive: true });
    await fs.writeFile(path.join(parts.workspace, '.husky/pre-commit'), 'npm test\n');
    await fs.writeFile(path.join(parts.workspace, 'project.gitconfig'), '[alias]\n\tst = status\n');
    hostGit(parts.workspace, parts.home, 'config', 'core.hooksPath', '.husky/_');
    hostGit(parts.workspace, parts.home, 'config', 'include.path', '../project.gitconfig');
    const policy = policyFor(parts, 'workspace-write');
    const result = await bash(
      'echo evil > .husky/pre-commit; echo evil > .husky/_/pre-commit; echo "[core] fsmonitor = evil" >> project.gitconfig; echo ok > src.txt',
      policy,
      parts.workspace,
    );
    // Staged writes: the command saw its writes; release() refused them and said so.
    expect(result.stderr).toBe('');
    expect(refusedPaths(result).sort()).toEqual(['.husky/_/pre-commit', '.husky/pre-commit', 'project.gitconfig'].map((name) => path.join(parts.workspace, name)));
    expect(await readOrNull(path.join(parts.workspace, '.husky/pre-commit'))).toBe('npm test\n');
    expect(await readOrNull(path.join(parts.workspace, 'project.gitconfig'))).toBe('[alias]\n\tst = status\n');
    expect(await readOrNull(path.join(parts.workspace, 'src.txt'))).toBe('ok\n');
    for (const name of ['.husky/pre-commit', '.husky/_/pre-commit', 'project.gitconfig']) {
      expect(checkAccess(policy, path.join(parts.workspace, name), 'write', 'process').allowed, name).toBe(false);
    }
  });

  it('a .git file (linked worktree) cannot be repointed, and the git directory it names keeps its config and hooks', async () => {
    const parts = await fixture('worktree');
    const main = path.join(parts.base, 'main');
    await repository(main, parts.home);
    hostGit(main, parts.home, 'worktree', 'add', '-q', parts.workspace.replace(/ws$/, 'linked'));
    const linked = path.join(parts.base, 'linked');
    const pointer = await readOrNull(path.join(linked, '.git'));
    expect(pointer).toMatch(/^gitdir: /);
    // full-access: everything but the tiers is writable, so the main repository is reachable too.
    const policy = policyFor(parts, 'full-access', { workspaceRoots: [linked] });
    const result = await bash(
      [
        `echo 'gitdir: ${parts.base}/evil' > .git`,
        'rm -f .git',
        `echo evil >> ${main}/.git/config`,
        `echo evil > ${main}/.git/worktrees/linked/commondir`,
        `echo evil > ${main}/.git/hooks/pre-commit`,
        'echo done',
      ].join('; '),
      policy,
      linked,
    );
    expect(result.stdout).toBe('done\n');
    expect(await readOrNull(path.join(linked, '.git'))).toBe(pointer);
    expect(await readOrNull(path.join(main, '.git/config'))).not.toContain('evil');
    expect(await readOrNull(path.join(main, '.git/worktrees/linked/commondir'))).toBe('../..\n');
    expect(await exists(path.join(main, '.git/hooks/pre-commit'))).toBe(false);
    expect(checkAccess(policy, path.join(linked, '.git'), 'write', 'process').allowed).toBe(false);
  });
});

describe('bypass 2: a protected name that is a symbolic link (tier 3)', () => {
  it('in the workspace root a linked .vscode or a dangling .envrc: staged writes keep both links, in workspace-write and full-access, as the fence denies replacing them', async () => {
    const parts = await fixture('root-links');
    await fs.mkdir(path.join(parts.workspace, 'shared/vscode'), { recursive: true });
    await fs.writeFile(path.join(parts.workspace, 'shared/vscode/settings.json'), '{}\n');
    await fs.symlink('shared/vscode', path.join(parts.workspace, '.vscode'));
    await fs.symlink('missing-envrc', path.join(parts.workspace, '.envrc'));
    const vscode = path.join(parts.workspace, '.vscode');
    const before = await listTree(parts.workspace);
    // A grant on .vscode names what it points to (grant paths are canonical): the link itself stays protected.
    const grants: PathGrant[] = [{ path: vscode, access: 'write', scope: 'subtree' }];
    const attack = 'rm .vscode && mkdir .vscode && echo evil > .vscode/tasks.json; rm -f .envrc; echo evil > .envrc';
    for (const policy of ['workspace-write', 'full-access'].flatMap((mode) => [policyFor(parts, mode as SandboxMode), policyFor(parts, mode as SandboxMode, { grants })])) {
      expect(checkAccess(policy, vscode, 'write', 'process').allowed).toBe(false);
      expect(checkAccess(policy, path.join(parts.workspace, 'missing-envrc'), 'write', 'process').allowed).toBe(false);
      // Staged writes (architecture §3.10): the call runs; release() keeps both links and reports it.
      const result = await bash(attack, policy, parts.workspace);
      expect(refusedPaths(result)).toEqual(expect.arrayContaining([vscode, path.join(parts.workspace, '.envrc')]));
      expect(await listTree(parts.workspace)).toEqual(before);
      expect(await fs.readlink(vscode)).toBe('shared/vscode');
      expect(await fs.readlink(path.join(parts.workspace, '.envrc'))).toBe('missing-envrc');
    }
    // read-only: nothing is writable, so nothing needs refusing.
    const readOnly = await bash('cat .vscode/settings.json', policyFor(parts, 'read-only'), parts.workspace);
    expect(readOnly.stdout).toBe('{}\n');
    // The fixes the message gives work: afterwards .vscode is an ordinary protected folder.
    execFileSync('/bin/bash', ['-c', `rm '${parts.workspace}/.envrc' && target=$(readlink -f '${vscode}') && rm '${vscode}' && cp -a "$target" '${vscode}'`]);
    const fixed = await bash('echo evil > .vscode/tasks.json; rm -rf .vscode; echo ok > new.txt', policyFor(parts, 'workspace-write'), parts.workspace);
    // The command wrote tasks.json, then removed the folder: release() refuses removing what is in it (reported), so .vscode stays.
    expect(refusedPaths(fixed)).toEqual([path.join(vscode, 'settings.json')]);
    expect(await fs.readdir(vscode)).toEqual(['settings.json']);
    expect(await readOrNull(path.join(parts.workspace, 'new.txt'))).toBe('ok\n');
  });

  it('workspace = HOME with ~/.bashrc -> dotfiles/bashrc: the link cannot be replaced, and work below home goes on', async () => {
    const parts = await fixture('home-workspace');
    const home = parts.home;
    await fs.mkdir(path.join(home, 'dotfiles'));
    await fs.mkdir(path.join(home, 'project'));
    await fs.writeFile(path.join(home, 'dotfiles/bashrc'), '# bashrc\n');
    await fs.symlink('dotfiles/bashrc', path.join(home, '.bashrc'));
    await fs.symlink('dotfiles/profile', path.join(home, '.profile')); // dangling
    const policy = policyFor(parts, 'workspace-write', { workspaceRoots: [home] });
    expect(checkAccess(policy, path.join(home, '.bashrc'), 'write', 'process').allowed).toBe(false);
    expect(checkAccess(policy, path.join(home, 'dotfiles/profile'), 'write', 'process').allowed).toBe(false);
    const result = await bash(
      [
        'rm ~/.bashrc && echo evil > ~/.bashrc',
        'echo evil >> ~/.bashrc',
        'mv ~/.profile ~/profile.old; echo evil > ~/.profile',
        'echo ok > ~/project/notes.txt',
        'echo done',
      ].join('; '),
      policy,
      home,
    );
    expect(result.stdout).toBe('done\n');
    // Staged writes: inside, the links were replaced; release() kept them and reported it.
    expect(refusedPaths(result)).toEqual(expect.arrayContaining([path.join(home, '.bashrc'), path.join(home, '.profile')]));
    expect((await fs.lstat(path.join(home, '.bashrc'))).isSymbolicLink()).toBe(true);
    expect(await fs.readlink(path.join(home, '.profile'))).toBe('dotfiles/profile');
    expect(await readOrNull(path.join(home, 'dotfiles/bashrc'))).toBe('# bashrc\n');
    expect(await exists(path.join(home, 'dotfiles/profile'))).toBe(false);
    expect(await readOrNull(path.join(home, 'project/notes.txt'))).toBe('ok\n');
  });
});

describe('bypass 3: tier 1 through a symbolic link', () => {
  it('a linked <root>/.openwork: staged writes keep it and what it points to, in workspace-write and full-access, with no escalation hint; no grant lifts it', async () => {
    const parts = await fixture('root-openwork');
    await fs.mkdir(path.join(parts.base, 'state'));
    const link = path.join(parts.workspace, '.openwork');
    await fs.symlink(path.join(parts.base, 'state'), link);
    const grants: PathGrant[] = [{ path: link, access: 'write', scope: 'subtree' }];
    for (const policy of ['workspace-write', 'full-access'].flatMap((mode) => [policyFor(parts, mode as SandboxMode), policyFor(parts, mode as SandboxMode, { grants })])) {
      const result = await bash('echo evil > .openwork/config.json; rm .openwork; mkdir .openwork && echo evil > .openwork/config.json', policy, parts.workspace);
      expect(result.staged?.refused.length).toBeGreaterThan(0);
      for (const refusal of result.staged?.refused ?? []) {
        expect(refusal.message).toMatch(/is protected and cannot be changed by tools\.$/); // tier 1: no hint
        expect(refusal.suggestedGrant).toBeUndefined();
      }
      expect(await fs.readlink(link)).toBe(path.join(parts.base, 'state'));
    }
    expect(await fs.readdir(path.join(parts.base, 'state'))).toEqual([]);
  });

  it('full-access with ~/.openwork -> a folder: rm the link, mkdir, write — all fail, the OpenWork home is untouched', async () => {
    const parts = await fixture('home-openwork');
    const data = path.join(parts.base, 'openwork-data');
    await fs.mkdir(data);
    await fs.writeFile(path.join(data, 'config.json'), '{}\n');
    await fs.symlink(data, path.join(parts.home, '.openwork'));
    await fs.mkdir(path.join(parts.home, 'code'));
    const policy = policyFor(parts, 'full-access');
    expect(checkAccess(policy, path.join(parts.home, '.openwork'), 'write', 'process')).toMatchObject({ allowed: false, tier: 'hard-protected' });
    const home = parts.home;
    const result = await bash(
      `rm ${home}/.openwork; mkdir ${home}/.openwork; echo evil > ${home}/.openwork/config.json; echo ok > ${home}/code/x.txt; echo done`,
      policy,
      parts.workspace,
    );
    expect(result.stdout).toBe('done\n');
    expect(await fs.readlink(path.join(parts.home, '.openwork'))).toBe(data);
    expect(await readOrNull(path.join(data, 'config.json'))).toBe('{}\n');
    expect(await readOrNull(path.join(parts.home, 'code/x.txt'))).toBe('ok\n');
  });
});
