import { chmod, lstat, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult, type ToolArtifact } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reapplyFileChanges, undoFileChanges, type FileChangeEngineOptions, type FileChangeOutcome } from '../index.js';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';

// Changes made the model's way — `write` and `edit` through a finalized toolset's `call` — then
// undone and reapplied from their artifacts as a session store gives them back (JSON).

let fixture: BuiltinsFixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

const inWorkspace = (path: string) => join(fixture.workspace, path);

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** One successful call; its artifacts as stored (JSON round trip). */
async function changed(tool: 'write' | 'edit', input: unknown, callId: string): Promise<unknown[]> {
  const result = await fixture.call(tool, input, { callId });
  expect(result.status, ToolResult.text(result)).toBe('succeeded');
  expect(result.artifacts).toHaveLength(1);
  return JSON.parse(JSON.stringify(result.artifacts as ToolArtifact[])) as unknown[];
}

/** What core passes: the session's backend and locks, and the session's policy (no call's grants). */
function engine(): FileChangeEngineOptions {
  return { filesystem: fixture.session.filesystem, writeLocks: fixture.session.writeLocks, policy: fixture.policy() };
}

function succeeded(outcome: FileChangeOutcome) {
  if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
  return outcome;
}

describe('§8.4 undo and reapply of changes made through write and edit', () => {
  it('undoing "write creates, then edit, then edit" through the tools deletes the file; reapply brings it back', async () => {
    const artifacts = [
      ...(await changed('write', { path: 'src/config.ts', content: 'export const a = 1;\nexport const b = 2;\n' }, 'call_1')),
      ...(await changed('edit', { filePath: 'src/config.ts', oldString: 'a = 1', newString: 'a = 10' }, 'call_2')),
      ...(await changed('edit', { filePath: 'src/config.ts', oldString: 'b = 2', newString: 'b = 20' }, 'call_3')),
    ];
    expect(await readFile(inWorkspace('src/config.ts'), 'utf8')).toBe('export const a = 10;\nexport const b = 20;\n');

    const undo = succeeded(await undoFileChanges({ artifacts }, engine()));
    expect(undo.changeIds).toEqual(['call_3', 'call_2', 'call_1']);
    expect(await exists(inWorkspace('src/config.ts'))).toBe(false);

    const reapply = succeeded(await reapplyFileChanges({ artifacts: JSON.parse(JSON.stringify(undo.artifacts)) as unknown[] }, engine()));
    expect(reapply.changeIds).toEqual(['call_1', 'call_2', 'call_3']);
    expect(await readFile(inWorkspace('src/config.ts'), 'utf8')).toBe('export const a = 10;\nexport const b = 20;\n');
  });

  it('undo of an edit restores the exact bytes (CRLF endings, mode) and the model must read again before editing', async () => {
    await writeFile(inWorkspace('win.txt'), 'first\r\nsecond\r\n');
    await chmod(inWorkspace('win.txt'), 0o640);
    await fixture.call('read', { path: 'win.txt' });
    const artifacts = await changed('edit', { filePath: 'win.txt', oldString: 'second', newString: 'SECOND' }, 'call_1');
    expect(await readFile(inWorkspace('win.txt'), 'utf8')).toBe('first\r\nSECOND\r\n');

    succeeded(await undoFileChanges({ artifacts }, engine()));

    expect(await readFile(inWorkspace('win.txt'), 'utf8')).toBe('first\r\nsecond\r\n');
    expect((await stat(inWorkspace('win.txt'))).mode & 0o7777).toBe(0o640);
    // Undo does not go through the observation table (§7.4): the model's last view is stale now.
    const edit = await fixture.call('edit', { filePath: 'win.txt', oldString: 'first', newString: 'FIRST' });
    expect(edit.status).toBe('failed');
    expect(ToolResult.text(edit)).toBe('win.txt changed since you last read it (by you via bash, or by the user). Read it again before editing.');
    expect(await readFile(inWorkspace('win.txt'), 'utf8')).toBe('first\r\nsecond\r\n');
  });

  it('undo_refuses_to_overwrite_an_external_change, for a change made by the edit tool', async () => {
    await writeFile(inWorkspace('lib.py'), 'x = 1\n');
    await fixture.call('read', { path: 'lib.py' });
    const artifacts = await changed('edit', { filePath: 'lib.py', oldString: 'x = 1', newString: 'x = 2' }, 'call_1');
    await writeFile(inWorkspace('lib.py'), 'x = 2\ny = 3  # the user\n');

    const outcome = await undoFileChanges({ artifacts }, engine());

    expect(outcome).toMatchObject({ ok: false, code: 'conflict', conflicts: [{ changeId: 'call_1', displayPath: 'lib.py', reason: 'its content is different' }] });
    expect(await readFile(inWorkspace('lib.py'), 'utf8')).toBe('x = 2\ny = 3  # the user\n');
  });

  it('reapply_refuses_to_overwrite_a_change_made_after_undo, for a change made by the write tool', async () => {
    const artifacts = await changed('write', { path: 'notes.md', content: '# Notes\n' }, 'call_1');
    const undo = succeeded(await undoFileChanges({ artifacts }, engine()));
    expect(await exists(inWorkspace('notes.md'))).toBe(false);
    // After the undo the model writes the file again, differently.
    await changed('write', { path: 'notes.md', content: '# Other notes\n' }, 'call_2');

    const outcome = await reapplyFileChanges({ artifacts: [...undo.artifacts] }, engine());

    expect(outcome).toMatchObject({ ok: false, code: 'conflict', conflicts: [{ changeId: 'call_1', reason: 'a file exists there now' }] });
    expect(await readFile(inWorkspace('notes.md'), 'utf8')).toBe('# Other notes\n');
  });

  it('a write outside the workspace approved with a grant is undone with the session policy and exact grants only', async () => {
    const outside = join(fixture.outside, 'report.txt');
    await writeFile(outside, 'draft\n');
    await fixture.call('read', { path: outside });
    const denied = await fixture.call('write', { path: outside, content: 'final\n' });
    expect(denied.status).toBe('denied');
    const result = await fixture.call(
      'write',
      { path: outside, content: 'final\n', sandboxPermissions: { paths: [{ path: outside, access: 'write', scope: 'exact' }] }, justification: 'the user asked for the report' },
      { callId: 'call_1', grants: [{ path: outside, access: 'write', scope: 'exact' }] },
    );
    expect(ToolResult.text(result)).toBe(`Overwrote ${outside} (+1 -1)`);

    succeeded(await undoFileChanges({ artifacts: [...result.artifacts] }, engine()));

    expect(await readFile(outside, 'utf8')).toBe('draft\n');
  });

  it('undo of a batch with a file changed by the user meanwhile changes no file of the batch', async () => {
    const artifacts = [
      ...(await changed('write', { path: 'a.txt', content: 'a\n' }, 'call_1')),
      ...(await changed('write', { path: 'b.txt', content: 'b\n' }, 'call_2')),
    ];
    await writeFile(inWorkspace('a.txt'), 'a, kept\n');

    expect(await undoFileChanges({ artifacts }, engine())).toMatchObject({ ok: false, code: 'conflict' });

    expect(await readFile(inWorkspace('a.txt'), 'utf8')).toBe('a, kept\n');
    expect(await readFile(inWorkspace('b.txt'), 'utf8')).toBe('b\n');
  });
});
