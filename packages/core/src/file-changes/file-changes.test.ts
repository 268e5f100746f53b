import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
