import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSessionStore } from '@openwork/store-sqlite';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreFixture, recordUpdates } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import { renderFileChange } from './render-file-change.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

const BEFORE = 'export const question = "life";\nexport const answer = 41;\nexport const unit = "none";\n';
const AFTER = 'export const question = "life";\nexport const answer = 42;\nexport const unit = "none";\n';

describe('core end to end on a real SQLite file (§8.4)', () => {
  it('a scripted edit survives a restart: the stored artifact renders the same diff, and undo restores the file and marks it undone', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-core-e2e-')));
    roots.push(root);
    const openworkHome = join(root, 'home', '.openwork');

    // First run: the model reads and edits a file.
    const firstStore = await SqliteSessionStore.open({ openworkHome });
    const first = await createCoreFixture({ store: firstStore, root });
    const file = join(first.workspace, 'answer.ts');
    await writeFile(file, BEFORE);
    const session = await first.session({ id: 'e2e' });
    const updates = recordUpdates(session);
    const model = new ScriptedModel([
      [callTool('call_read', 'read', { path: 'answer.ts' })],
      [callTool('call_edit', 'edit', { filePath: 'answer.ts', oldString: '41', newString: '42' })],
      [say('The answer is 42 now.')],
    ]);
    expect((await session.runTurn({ input: 'Fix the answer.', model })).status).toBe('completed');
    expect(await readFile(file, 'utf8')).toBe(AFTER);
    const live = updates.find((update) => update.type === 'tool_call_finished' && update.callId === 'call_edit');
    if (live?.type !== 'tool_call_finished') throw new Error('the edit finished live');
    const liveDiff = renderFileChange(live.result.artifacts[0]);
    expect(liveDiff).toBe(
      [
        '--- a/answer.ts',
        '+++ b/answer.ts',
        '@@ -1,3 +1,3 @@',
        ' export const question = "life";',
        '-export const answer = 41;',
        '+export const answer = 42;',
        ' export const unit = "none";',
        '',
      ].join('\n'),
    );
    await first.runtime.close();
    await firstStore.close();

    // Second run: a new runtime on the same file.
    const secondStore = await SqliteSessionStore.open({ openworkHome });
    const second = await createCoreFixture({ store: secondStore, root });
    try {
      const reopened = await second.runtime.openSession('e2e');
      expect((await reopened.messages()).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
      const [change] = await reopened.fileChanges();
      expect(change).toMatchObject({ changeId: 'call_edit', path: 'answer.ts', undone: false });
      // The diff comes from the stored artifact alone, byte for byte the one shown live.
      expect(renderFileChange(change?.artifact)).toBe(liveDiff);
      // The observation table is not stored (§7.4): after a restart the model reads again before editing.
      const stale = await reopened.callTool('edit', { filePath: 'answer.ts', oldString: '42', newString: '43' });
      expect(ToolResult.text(stale.result)).toBe('Read answer.ts before editing it.');

      const undone = await reopened.undo(['call_edit']);
      expect(undone).toMatchObject({ ok: true, operation: 'undo', changeIds: ['call_edit'] });
      expect(await readFile(file, 'utf8')).toBe(BEFORE);
      const [afterUndo] = await reopened.fileChanges();
      expect(afterUndo?.undone).toBe(true);
      expect((afterUndo?.artifact.change as { undone?: boolean }).undone).toBe(true);
      const stored = (await reopened.messages()).find((message) => message.role === 'tool' && message.toolCallId === 'call_edit');
      expect(stored?.role === 'tool' && (stored.result.artifacts[0] as unknown as { change: { undone: boolean } }).change.undone).toBe(true);
      // The diff of an undone change still renders the change that was made.
      expect(renderFileChange(afterUndo?.artifact)).toBe(liveDiff);
    } finally {
      await second.runtime.close();
      await secondStore.close();
    }

    // A third run sees the undo, and can reapply it.
    const thirdStore = await SqliteSessionStore.open({ openworkHome });
    const third = await createCoreFixture({ store: thirdStore, root });
    try {
      const again = await third.runtime.openSession('e2e');
      expect((await again.fileChanges())[0]?.undone).toBe(true);
      expect(await again.reapply(['call_edit'])).toMatchObject({ ok: true, operation: 'reapply' });
      expect(await readFile(file, 'utf8')).toBe(AFTER);
      expect((await again.fileChanges())[0]?.undone).toBe(false);
    } finally {
      await third.runtime.close();
      await thirdStore.close();
    }
  });
});
