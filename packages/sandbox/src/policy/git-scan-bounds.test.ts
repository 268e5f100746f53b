import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccess, createSandboxPolicy, findGitRedirections } from '../index.js';
import type { GitScanStatistics } from '../index.js';

// Folders planted in `.git` (ordinary writable content of a repository) must not make building a
// call's policy read more. Proven by counting what the scan reads through its public `statistics`
// option, before and after planting 20,000 folders (no timing here).

let root: string;
let home: string;
let workspace: string;

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@openwork.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@openwork.invalid' },
  });
}

function repository(directory: string): void {
  fs.mkdirSync(directory, { recursive: true });
  fs.writeFileSync(path.join(directory, 'a.txt'), 'a\n');
  git(directory, 'init', '-q', '-b', 'main');
  git(directory, 'add', '.');
  git(directory, 'commit', '-q', '-m', 'first');
}

function scanCost(): { redirections: GitScanStatistics; found: number } {
  const redirections: GitScanStatistics = { listedFolders: 0, readFiles: 0 };
  const found = findGitRedirections([workspace], home, { workspaceRoots: [workspace], statistics: redirections }).length;
  return { redirections, found };
}

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ow-git-bounds-')));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
  workspace = path.join(root, 'ws');
  repository(path.join(root, 'library'));
  repository(workspace);
  git(workspace, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', path.join(root, 'library'), 'lib');
  git(workspace, 'commit', '-q', '-m', 'submodule');
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the git scans are bounded', () => {
  it('20,000 folders planted in .git/modules and .git/objects — some looking like git directories — change nothing of what is read', () => {
    scanCost(); // indexes are read once per change: warm, as for every call after the first
    const clean = scanCost();
    const gitDirectory = path.join(workspace, '.git');
    for (let index = 0; index < 8_000; index += 1) {
      const planted = path.join(gitDirectory, 'modules', `p${index % 40}`, `m${index}`);
      fs.mkdirSync(planted, { recursive: true });
      if (index % 1000 === 0) {
        fs.writeFileSync(path.join(planted, 'HEAD'), 'ref: refs/heads/main\n');
        fs.writeFileSync(path.join(planted, 'config'), '[core]\n\thooksPath = /planted\n');
      }
    }
    for (let index = 0; index < 6_000; index += 1) fs.mkdirSync(path.join(gitDirectory, 'objects', `x${index}`, 'y'), { recursive: true });
    expect(scanCost()).toEqual(clean);
    // `.git/worktrees` is protected, so only an earlier unprotected session could have filled it:
    // it is then listed once, at most 256 of its entries, and nothing more is read.
    for (let index = 0; index < 1_000; index += 1) fs.mkdirSync(path.join(gitDirectory, 'worktrees', `w${index}`), { recursive: true });
    const withWorktrees = scanCost();
    expect(withWorktrees.redirections).toEqual({ listedFolders: clean.redirections.listedFolders + 1, readFiles: clean.redirections.readFiles });
    // The planted module directories are covered by `.git/modules` as a whole, not one by one.
    expect(checkAccess(createSandboxPolicy({ workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] }), path.join(gitDirectory, 'modules/p3/m3/config'), 'write', 'process').allowed).toBe(false);
    expect(findGitRedirections([workspace], home).some((entry) => entry.path.includes('/planted'))).toBe(false);
  });

  it('reads each index once while it is unchanged: a second scan of the same repository reads no index again', () => {
    const first: GitScanStatistics = { listedFolders: 0, readFiles: 0 };
    findGitRedirections([workspace], home, { statistics: first });
    fs.appendFileSync(path.join(workspace, 'a.txt'), 'b\n');
    git(workspace, 'add', 'a.txt'); // a new index: read once more
    const changed: GitScanStatistics = { listedFolders: 0, readFiles: 0 };
    findGitRedirections([workspace], home, { statistics: changed });
    const again: GitScanStatistics = { listedFolders: 0, readFiles: 0 };
    findGitRedirections([workspace], home, { statistics: again });
    expect(again.readFiles).toBe(changed.readFiles - 1);
  });
});
