import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccess, createSandboxPolicy } from '../index.js';
import type { SandboxPolicy } from '../index.js';

// A git configuration that git itself refuses ("bad config line") or that cannot be read whole is
// untrusted: what it says after the problem is unknown. Each caller of the reader gives its most
// protective answer for it, never the answer for a file without entries.

let root: string;

function environment(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@openwork.invalid',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@openwork.invalid',
  };
}

function git(cwd: string, home: string, ...args: string[]): { status: number | null; stderr: string } {
  const run = spawnSync('git', args, { cwd, env: environment(home), encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

function mustGit(cwd: string, home: string, ...args: string[]): void {
  const run = git(cwd, home, ...args);
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
}

/** A fresh home and a committed repository in it, named for the test. */
function repository(name: string): { home: string; repo: string } {
  const home = path.join(root, name, 'home');
  const repo = path.join(root, name, 'repo');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(repo, { recursive: true });
  fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  mustGit(repo, home, 'init', '-q', '-b', 'main');
  mustGit(repo, home, 'add', '.');
  mustGit(repo, home, 'commit', '-q', '-m', 'first');
  return { home, repo };
}

function policyFor(workspace: string, home: string): SandboxPolicy {
  return createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] });
}

function writable(policy: SandboxPolicy, target: string): boolean {
  return checkAccess(policy, target, 'write', 'process').allowed;
}

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ow-git-fail-closed-')));
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('findGitRedirections fails closed on a config it cannot read as git does', () => {
  it('a repository config git refuses: the whole work tree and git directory are protected; what came before the bad line still counts', () => {
    const { home, repo } = repository('refused');
    const control = policyFor(repo, home);
    expect(writable(control, path.join(repo, 'a.txt'))).toBe(true);
    expect(writable(control, path.join(repo, '.git/objects/ab/cd'))).toBe(true);

    // An unclosed quote: git stops at that line, so the hooksPath after it is unknown to git and to us.
    fs.appendFileSync(path.join(repo, '.git/config'), '[core]\n\thooksPath = ../outside-hooks\n\tfsmonitor = "unclosed\n\thooksPath = .husky\n');
    const refused = git(repo, home, 'status');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('bad config line');

    const policy = policyFor(repo, home);
    for (const name of ['a.txt', '.husky/pre-commit', 'src/new.ts', '.git/objects/ab/cd', '.git/index']) {
      expect(checkAccess(policy, path.join(repo, name), 'write', 'process'), name).toMatchObject({ allowed: false, tier: 'sensitive' });
    }
    // The hooksPath git read before it stopped is protected as before.
    expect(writable(policy, path.join(root, 'refused/outside-hooks/pre-commit'))).toBe(false);
    // Still read-only elsewhere: the home folder itself is not a writable root here, and is not named.
    expect(policy.gitRedirections.some((entry) => entry.path === home)).toBe(false);
  });

  it('stricter than git: a NUL byte or a name that is not UTF-8 also protects the repository whole', () => {
    for (const [name, tail] of [
      ['nul', Buffer.from('[core]\n\tpager = less\0x\n', 'latin1')],
      ['latin1', Buffer.from('[core]\n\thooksPath = caf\xe9\n', 'latin1')],
    ] as const) {
      const { home, repo } = repository(`strict-${name}`);
      fs.appendFileSync(path.join(repo, '.git/config'), tail);
      expect(writable(policyFor(repo, home), path.join(repo, 'a.txt')), name).toBe(false);
    }
  });

  it('a config too large to read, or that is a folder, is untrusted too', () => {
    const { home, repo } = repository('large');
    fs.appendFileSync(path.join(repo, '.git/config'), `${'# padding to over a mebibyte\n'.repeat(40_000)}`);
    expect(writable(policyFor(repo, home), path.join(repo, 'a.txt'))).toBe(false);

    const folder = repository('folder');
    fs.rmSync(path.join(folder.repo, '.git/config'));
    fs.mkdirSync(path.join(folder.repo, '.git/config'));
    expect(writable(policyFor(folder.repo, folder.home), path.join(folder.repo, 'a.txt'))).toBe(false);
  });

  it('an included file git refuses: its folder and the work tree are protected', () => {
    const { home, repo } = repository('included');
    const shared = path.join(root, 'included/shared');
    fs.mkdirSync(shared);
    fs.writeFileSync(path.join(shared, 'team.gitconfig'), '[core]\n\tpager = less\n[broken\n');
    mustGit(repo, home, 'config', 'includeIf.onbranch:main.path', '../../shared/team.gitconfig');
    expect(git(repo, home, 'status').stderr).toContain('bad config line');
    // The folder of the included file is a second writable root of the session.
    const policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [repo], extraWritableRoots: [shared], homeDirectory: home, tempRoots: [] });
    expect(writable(policy, path.join(repo, 'a.txt'))).toBe(false);
    expect(writable(policy, path.join(shared, 'other.gitconfig'))).toBe(false);

    // Control: the same include, read whole, protects the included file only.
    fs.writeFileSync(path.join(shared, 'team.gitconfig'), '[core]\n\tpager = less\n');
    const control = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [repo], extraWritableRoots: [shared], homeDirectory: home, tempRoots: [] });
    expect(writable(control, path.join(repo, 'a.txt'))).toBe(true);
    expect(writable(control, path.join(shared, 'other.gitconfig'))).toBe(true);
    expect(writable(control, path.join(shared, 'team.gitconfig'))).toBe(false);
  });

  it('a global config git refuses: every work tree it applies to and the folder holding it', () => {
    const { home, repo } = repository('global');
    fs.mkdirSync(path.join(home, '.config/git'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config/git/config'), '[core]\n\thooksPath = \\q\n');
    expect(git(repo, home, 'status').stderr).toContain('bad config line');
    const policy = policyFor(repo, home);
    expect(writable(policy, path.join(repo, 'a.txt'))).toBe(false);
    expect(checkAccess(policy, path.join(home, '.config/git/other'), 'write', 'process')).toMatchObject({ allowed: false, tier: 'sensitive' });
  });

  it('a config git reads whole changes nothing: odd but valid forms keep the work tree writable', () => {
    const { home, repo } = repository('valid');
    fs.appendFileSync(path.join(repo, '.git/config'), '\r\n[Core]\r\n\tPager = "less \\\r\n -R" ; comment\r\n[x.Main]\n\tflag\n[x "a\\"b"] y = 1\n');
    expect(git(repo, home, 'status').status).toBe(0);
    const policy = policyFor(repo, home);
    expect(writable(policy, path.join(repo, 'a.txt'))).toBe(true);
    expect(writable(policy, path.join(repo, '.git/config'))).toBe(false);
  });
});
