import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditGitRepositories, createSandboxPolicy } from '../index.js';
import type { SandboxPolicy } from '../index.js';

// The audit after a call reads gitlinks from the index itself: a command can rewrite the index in
// any format git reads (versions 2–4, split, SHA-256), so each must show the planted gitlink.

let root: string;
let home: string;

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@openwork.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@openwork.invalid' },
  });
}

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ow-git-audit-')));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/**
 * A workspace, the policy of a call built for it, and then — as that call's command would — a
 * nested repository with core.fsmonitor recorded in an index rewritten by `prepare`.
 */
function plantedWorkspace(name: string, initArgs: readonly string[], prepare: (workspace: string) => void): { workspace: string; policy: SandboxPolicy } {
  const workspace = path.join(root, name);
  fs.mkdirSync(workspace);
  git(workspace, 'init', '-q', ...initArgs);
  for (let index = 0; index < 40; index += 1) fs.writeFileSync(path.join(workspace, `file-${index}.txt`), `${index}\n`);
  git(workspace, 'add', '.');
  git(workspace, 'commit', '-q', '-m', 'files');
  const policy = createSandboxPolicy({ workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] });
  const nested = path.join(workspace, 'deep/vendor/lib');
  fs.mkdirSync(nested, { recursive: true });
  git(nested, 'init', '-q', ...initArgs);
  git(nested, 'config', 'core.fsmonitor', 'touch /nonexistent/planted');
  git(nested, 'commit', '-q', '--allow-empty', '-m', 'x');
  prepare(workspace);
  git(workspace, 'add', 'deep/vendor/lib');
  return { workspace, policy };
}

describe('auditGitRepositories reads gitlinks from every index format', () => {
  const formats: Array<[string, readonly string[], (workspace: string) => void]> = [
    ['index version 2', [], (workspace) => git(workspace, 'update-index', '--index-version', '2')],
    ['index version 3 (extended flags: intent-to-add)', [], (workspace) => {
      fs.writeFileSync(path.join(workspace, 'later.txt'), 'later\n');
      git(workspace, 'add', '-N', 'later.txt');
      git(workspace, 'update-index', '--index-version', '3');
    }],
    ['index version 4 (prefix-compressed names)', [], (workspace) => git(workspace, 'update-index', '--index-version', '4')],
    ['a split index (the gitlink in the shared part)', [], (workspace) => git(workspace, 'update-index', '--split-index')],
    ['a SHA-256 repository', ['--object-format=sha256'], () => undefined],
  ];
  for (const [name, initArgs, prepare] of formats) {
    it(`finds and moves aside a planted gitlink repository in ${name}`, () => {
      const { workspace, policy } = plantedWorkspace(name.replace(/[^a-z0-9]+/gi, '-'), initArgs, prepare);
      if (name.startsWith('a split')) git(workspace, 'update-index', '--split-index'); // move the new entry into the shared index too
      const findings = auditGitRepositories(policy);
      expect(findings).toEqual([
        { kind: 'moved', repository: path.join(workspace, 'deep/vendor/lib/.git'), linkedFrom: workspace, reasons: ['config sets core.fsmonitor'], movedTo: path.join(workspace, 'deep/vendor/lib/.git.openwork-quarantine') },
      ]);
    });
  }
});
