import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { snapshotTree } from '@openwork/tooling/tree-snapshot';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreFixture, recordUpdates, type CoreFixture } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';

const fixtures: CoreFixture[] = [];
async function fixture(): Promise<CoreFixture> {
  const created = await createCoreFixture();
  fixtures.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((entry) => entry.cleanup()));
});

describe('undo and reapply through the session (§8.4)', () => {
  it('a file changed since the edit is a conflict: nothing is overwritten and the record stays', async () => {
    const machine = await fixture();
    const session = await machine.session();
    await session.callTool('write', { path: 'a.txt', content: 'one\n' }, { callId: 'call_create' });
    await writeFile(join(machine.workspace, 'a.txt'), 'changed by the user\n');
    const outcome = await session.undo(['call_create']);
    expect(outcome).toMatchObject({ ok: false, code: 'conflict', operation: 'undo' });
    expect(await readFile(join(machine.workspace, 'a.txt'), 'utf8')).toBe('changed by the user\n');
    expect((await session.fileChanges())[0]?.undone).toBe(false);
  });

  it('undoes create-then-edit of one file last first, tells subscribers, and refuses unknown ids', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const model = new ScriptedModel([
      [callTool('call_create', 'write', { path: 'notes.md', content: '# Notes\n' })],
      [callTool('call_edit', 'edit', { filePath: 'notes.md', oldString: '# Notes\n', newString: '# Notes\n\n- one\n' })],
      [say('done')],
    ]);
    await session.runTurn({ input: 'notes', model });
    const updates = recordUpdates(session);
    expect(await session.undo(['nope'])).toMatchObject({ ok: false, code: 'invalid_request' });
    const undone = await session.undo(['call_create', 'call_edit']);
    expect(undone).toMatchObject({ ok: true, changeIds: ['call_edit', 'call_create'] });
    await expect(readFile(join(machine.workspace, 'notes.md'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(updates).toEqual([{ type: 'file_changes_updated', sessionId: session.id, changeIds: ['call_edit', 'call_create'], undone: true }]);
    expect((await session.fileChanges()).map((change) => change.undone)).toEqual([true, true]);
    expect(await session.reapply(['call_create', 'call_edit'])).toMatchObject({ ok: true, changeIds: ['call_create', 'call_edit'] });
    expect(await readFile(join(machine.workspace, 'notes.md'), 'utf8')).toBe('# Notes\n\n- one\n');
  });
});

/** The tree without inode numbers and change times (no undo gives those back). */
async function contentOf(root: string): Promise<string[]> {
  return (await snapshotTree(root)).map((line) => line.replace(/ ino=\d+/, '').replace(/ ctime=\d+/, ''));
}

describe("a bash call's changes through the session (§8.4, architecture §3.10)", () => {
  it('are listed as file changes, undone by the call id exactly, refused on conflict, reapplied', async () => {
    const machine = await fixture();
    const session = await machine.session();
    await writeFile(join(machine.workspace, 'notes.txt'), 'one\n');
    await writeFile(join(machine.workspace, 'tool.sh'), 'echo tool\n');
    await chmod(join(machine.workspace, 'tool.sh'), 0o755);
    await mkdir(join(machine.workspace, 'gone'));
    await writeFile(join(machine.workspace, 'gone', 'x.txt'), 'x\n');
    await symlink('notes.txt', join(machine.workspace, 'old-link'));
    const before = await contentOf(machine.workspace);

    const { result } = await session.callTool('bash', { command: 'echo two >> notes.txt && rm tool.sh old-link && rm -r gone && mkdir made && echo new > made/new.txt && ln -s made/new.txt link' }, { callId: 'call_bash' });
    expect(result.status).toBe('succeeded');
    expect(result.artifacts.at(-1)).toMatchObject({ kind: 'file_change_summary', summary: { callId: 'call_bash', counts: { created: 3, modified: 1, deleted: 4 }, complete: true } });
    const after = await contentOf(machine.workspace);

    const listed = await session.fileChanges();
    expect(listed.map((change) => change.path).sort()).toEqual(['gone', 'gone/x.txt', 'link', 'made', 'made/new.txt', 'notes.txt', 'old-link', 'tool.sh']);
    expect(listed.every((change) => change.changeId.startsWith('call_bash.') && !change.undone)).toBe(true);

    const undone = await session.undo(['call_bash']);
    expect(undone).toMatchObject({ ok: true });
    expect(await contentOf(machine.workspace)).toEqual(before);
    expect((await session.fileChanges()).every((change) => change.undone)).toBe(true);

    expect(await session.reapply(['call_bash'])).toMatchObject({ ok: true });
    expect(await contentOf(machine.workspace)).toEqual(after);

    await writeFile(join(machine.workspace, 'made', 'new.txt'), 'mine now\n');
    const changedSince = await snapshotTree(machine.workspace);
    expect(await session.undo(['call_bash'])).toMatchObject({ ok: false, code: 'conflict' });
    expect(await snapshotTree(machine.workspace)).toEqual(changedSince);
    expect((await session.fileChanges()).every((change) => !change.undone)).toBe(true);
  });

  it('a binary change is listed and its undo is refused with the reason; nothing is touched', async () => {
    const machine = await fixture();
    const session = await machine.session();
    const { result } = await session.callTool('bash', { command: 'printf "\\x89PNG\\x00\\xff" > image.png' }, { callId: 'call_png' });
    expect(result.status).toBe('succeeded');
    const [change] = await session.fileChanges();
    expect(change?.artifact).toMatchObject({ kind: 'file_change', change: { kind: 'created', unrecorded: 'binary', size: 6, afterContent: null } });
    const snapshot = await snapshotTree(machine.workspace);
    const outcome = await session.undo(['call_png']);
    expect(outcome).toMatchObject({ ok: false, code: 'not_recorded' });
    expect(!outcome.ok && outcome.message).toContain('image.png');
    expect(await snapshotTree(machine.workspace)).toEqual(snapshot);
  });
});
