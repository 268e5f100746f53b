import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFileChange,
  reapplyFileChanges,
  undoFileChanges,
  type FileChangeArtifact,
  type FileChangeOutcome,
} from '../index.js';
import { createFileChangeWorkspace, type FileChangeWorkspace } from './test-support/file-change-workspace.js';
import { RacingFileSystem } from './test-support/racing-file-system.js';

const sha256 = (content: string) => createHash('sha256').update(content, 'utf8').digest('hex');

let world: FileChangeWorkspace;
beforeEach(async () => {
  world = await createFileChangeWorkspace();
});
afterEach(async () => {
  await world.remove();
});

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** The artifacts as a session store gives them back: JSON, nothing else. */
function stored(...artifacts: FileChangeArtifact[]): unknown[] {
  return JSON.parse(JSON.stringify(artifacts)) as unknown[];
}

function expectFailure<C extends string>(outcome: FileChangeOutcome, code: C): Extract<FileChangeOutcome, { code: C }> {
  if (outcome.ok) throw new Error(`expected ${code}, got success ${JSON.stringify(outcome.changeIds)}`);
  expect(outcome.code, outcome.message).toBe(code);
  return outcome as Extract<FileChangeOutcome, { code: C }>;
}

function expectSuccess(outcome: FileChangeOutcome) {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome;
}

describe('§8.4 undo and reapply (file_changes)', () => {
  it('undo_refuses_to_overwrite_an_external_change', async () => {
    await writeFile(world.path('notes.md'), 'one\ntwo\n');
    const change = await world.change('call_1', 'notes.md', 'one\nTWO\n');
    await writeFile(world.path('notes.md'), 'one\nTWO\nthree, by the user\n');

    const outcome = await undoFileChanges({ artifacts: stored(change) }, world.engine());

    const conflict = expectFailure(outcome, 'conflict');
    expect(await world.read('notes.md')).toBe('one\nTWO\nthree, by the user\n');
    expect(conflict.conflicts).toEqual([
      {
        changeId: 'call_1',
        realPath: world.path('notes.md'),
        displayPath: 'notes.md',
        expectedHash: sha256('one\nTWO\n'),
        actualHash: sha256('one\nTWO\nthree, by the user\n'),
        reason: 'its content is different',
      },
    ]);
    expect(conflict.message).toBe(
      'Cannot undo: a file was changed since the change — notes.md (change call_1): its content is different. Nothing was changed. Look at the file, then try again or leave it as it is.',
    );
  });

  it('undo refuses when the file was deleted or replaced by a folder since the change', async () => {
    const change = await world.change('call_1', 'gone.txt', 'created\n');
    await rm(world.path('gone.txt'));
    const missing = expectFailure(await undoFileChanges({ artifacts: stored(change) }, world.engine()), 'conflict');
    expect(missing.conflicts[0]?.reason).toBe('it does not exist any more');
    expect(await exists(world.path('gone.txt'))).toBe(false);

    await mkdir(world.path('gone.txt'));
    const folder = expectFailure(await undoFileChanges({ artifacts: stored(change) }, world.engine()), 'conflict');
    expect(folder.conflicts[0]?.reason).toBe('it is now a folder');
    expect((await stat(world.path('gone.txt'))).isDirectory()).toBe(true);
  });

  it('reapply_refuses_to_overwrite_a_change_made_after_undo', async () => {
    await writeFile(world.path('app.ts'), 'let a = 1;\n');
    const change = await world.change('call_1', 'app.ts', 'let a = 2;\n');
    const undo = expectSuccess(await undoFileChanges({ artifacts: stored(change) }, world.engine()));
    expect(await world.read('app.ts')).toBe('let a = 1;\n');
    await writeFile(world.path('app.ts'), 'let a = 1; // kept by the user\n');

    const outcome = await reapplyFileChanges({ artifacts: stored(...(undo.artifacts as FileChangeArtifact[])) }, world.engine());

    const conflict = expectFailure(outcome, 'conflict');
    expect(await world.read('app.ts')).toBe('let a = 1; // kept by the user\n');
    expect(conflict.conflicts.map((entry) => [entry.changeId, entry.expectedHash, entry.actualHash])).toEqual([
      ['call_1', sha256('let a = 1;\n'), sha256('let a = 1; // kept by the user\n')],
    ]);
    expect(conflict.message).toContain('a file was changed since the undo — app.ts (change call_1): its content is different. Nothing was changed.');
  });

  it('reapply of a created file refuses when a file exists there again', async () => {
    const change = await world.change('call_1', 'new.txt', 'model\n');
    const undo = expectSuccess(await undoFileChanges({ artifacts: stored(change) }, world.engine()));
    await writeFile(world.path('new.txt'), 'user\n');
    const conflict = expectFailure(await reapplyFileChanges({ artifacts: stored(...undo.artifacts) }, world.engine()), 'conflict');
    expect(conflict.conflicts[0]).toMatchObject({ expectedHash: null, actualHash: sha256('user\n'), reason: 'a file exists there now' });
    expect(await world.read('new.txt')).toBe('user\n');
  });

  it('undo_reverses_multiple_changes_to_the_same_file_in_reverse_order', async () => {
    // "create, then edit" — and another file in between — in one batch (§8.4).
    const created = await world.change('call_1', 'src/lib.rs', 'fn a() {}\n');
    await writeFile(world.path('README.md'), 'old readme\n');
    const readme = await world.change('call_2', 'README.md', 'new readme\n');
    const edited = await world.change('call_3', 'src/lib.rs', 'fn a() {}\nfn b() {}\n');
    const editedAgain = await world.change('call_4', 'src/lib.rs', 'fn a() { b() }\nfn b() {}\n');

    const outcome = expectSuccess(await undoFileChanges({ artifacts: stored(created, readme, edited, editedAgain) }, world.engine()));

    expect(outcome.changeIds).toEqual(['call_4', 'call_3', 'call_2', 'call_1']);
    expect(await exists(world.path('src/lib.rs'))).toBe(false); // undoing "create, then edit" deletes the file
    expect(await exists(world.path('src'))).toBe(true); // folders the write made stay
    expect(await world.read('README.md')).toBe('old readme\n');
    expect(outcome.artifacts.map((artifact) => [artifact.change.changeId, artifact.change.undone])).toEqual([
      ['call_1', true],
      ['call_2', true],
      ['call_3', true],
      ['call_4', true],
    ]);
    // Everything but `undone` is what was stored.
    expect(outcome.artifacts[2]).toEqual({ ...edited, change: { ...edited.change, undone: true } });
  });

  it('undoing the last change alone restores the previous content of a chained file', async () => {
    await writeFile(world.path('a.txt'), 'v0\n');
    const first = await world.change('call_1', 'a.txt', 'v1\n');
    const second = await world.change('call_2', 'a.txt', 'v2\n');
    const outcome = expectSuccess(await undoFileChanges({ artifacts: stored(first, second), changeIds: ['call_2'] }, world.engine()));
    expect(outcome.changeIds).toEqual(['call_2']);
    expect(outcome.artifacts.map((artifact) => artifact.change.changeId)).toEqual(['call_2']);
    expect(await world.read('a.txt')).toBe('v1\n');
    // Undoing an earlier change while a later one still holds the file is a conflict.
    await world.change('call_3', 'a.txt', 'v3\n');
    const conflict = expectFailure(await undoFileChanges({ artifacts: stored(first), changeIds: ['call_1'] }, world.engine()), 'conflict');
    expect(conflict.conflicts[0]?.actualHash).toBe(sha256('v3\n'));
    expect(await world.read('a.txt')).toBe('v3\n');
  });

  it('a batch given in the wrong order is a conflict, never a wrong write', async () => {
    const created = await world.change('call_1', 'x.txt', 'one\n');
    const edited = await world.change('call_2', 'x.txt', 'two\n');
    const outcome = await undoFileChanges({ artifacts: stored(edited, created) }, world.engine());
    expectFailure(outcome, 'conflict');
    expect(await world.read('x.txt')).toBe('two\n');
  });

  it('reapply_restores_chained_changes_in_forward_order', async () => {
    const created = await world.change('call_1', 'src/main.py', 'print(1)\n');
    const edited = await world.change('call_2', 'src/main.py', 'print(1)\nprint(2)\n');
    await chmod(world.path('src/main.py'), 0o751);
    const afterChmod = await world.change('call_3', 'src/main.py', 'print(1)\nprint(2)\nprint(3)\n');
    const undo = expectSuccess(await undoFileChanges({ artifacts: stored(created, edited, afterChmod) }, world.engine()));
    expect(await exists(world.path('src/main.py'))).toBe(false);

    const outcome = expectSuccess(await reapplyFileChanges({ artifacts: stored(...undo.artifacts) }, world.engine()));

    expect(outcome.changeIds).toEqual(['call_1', 'call_2', 'call_3']);
    expect(await world.read('src/main.py')).toBe('print(1)\nprint(2)\nprint(3)\n');
    expect(outcome.artifacts.every((artifact) => !artifact.change.undone)).toBe(true);
    // The re-created file gets the mode recorded by the change that created it.
    expect((await stat(world.path('src/main.py'))).mode & 0o777).toBe(created.change.mode! & 0o777);
  });

  it('undo of a modification keeps the file mode', async () => {
    await writeFile(world.path('run.sh'), 'echo 1\n');
    await chmod(world.path('run.sh'), 0o754);
    const change = await world.change('call_1', 'run.sh', 'echo 2\n');
    expectSuccess(await undoFileChanges({ artifacts: stored(change) }, world.engine()));
    expect(await world.read('run.sh')).toBe('echo 1\n');
    expect((await stat(world.path('run.sh'))).mode & 0o7777).toBe(0o754);
  });

  it('a conflict on any file of a batch is found before anything is written', async () => {
    await writeFile(world.path('a.txt'), 'a0\n');
    await writeFile(world.path('b.txt'), 'b0\n');
    const a = await world.change('call_1', 'a.txt', 'a1\n');
    const b = await world.change('call_2', 'b.txt', 'b1\n');
    await writeFile(world.path('a.txt'), 'a1 and the user\n');
    const writes: string[] = [];
    const watched = new RacingFileSystem(world.filesystem, (_operation, path) => {
      writes.push(path);
    });
    const conflict = expectFailure(await undoFileChanges({ artifacts: stored(a, b) }, world.engine({ filesystem: watched })), 'conflict');
    expect(conflict.conflicts.map((entry) => entry.changeId)).toEqual(['call_1']);
    expect(writes).toEqual([]);
    expect(await world.read('b.txt')).toBe('b1\n');
    expect(await world.read('a.txt')).toBe('a1 and the user\n');
  });

  it('rollback: a file changed by an outside writer in the middle of a batch puts the finished steps back', async () => {
    await writeFile(world.path('a.txt'), 'a0\n');
    await writeFile(world.path('b.txt'), 'b0\n');
    const a = await world.change('call_1', 'a.txt', 'a1\n');
    const b = await world.change('call_2', 'b.txt', 'b1\n');
    // Undo runs call_2 (b) first, then call_1 (a); the outsider edits a.txt just before its step.
    const racing = new RacingFileSystem(world.filesystem, async (operation, path) => {
      if (operation === 'write' && path === world.path('a.txt') && (await world.read('b.txt')) === 'b0\n') {
        await writeFile(path, 'a1, edited meanwhile\n');
      }
    });

    const outcome = await undoFileChanges({ artifacts: stored(a, b) }, world.engine({ filesystem: racing }));

    const conflict = expectFailure(outcome, 'conflict');
    expect(await world.read('b.txt')).toBe('b1\n'); // its undo was rolled back
    expect(await world.read('a.txt')).toBe('a1, edited meanwhile\n'); // never overwritten
    expect(conflict.conflicts).toEqual([
      expect.objectContaining({ changeId: 'call_1', expectedHash: sha256('a1\n'), actualHash: sha256('a1, edited meanwhile\n') }),
    ]);
    expect(conflict.message).toContain('The files already changed were put back; nothing was overwritten.');
  });

  it('rollback: an I/O failure in the middle of a batch puts the finished steps back', async () => {
    await mkdir(world.path('one'));
    await mkdir(world.path('two'));
    await writeFile(world.path('one/a.txt'), 'a0\n');
    await writeFile(world.path('two/b.txt'), 'b0\n');
    const a = await world.change('call_1', 'one/a.txt', 'a1\n');
    const b = await world.change('call_2', 'two/b.txt', 'b1\n');
    // Reapply after undo: call_1 first, then call_2, whose folder an outsider moves away just before.
    const undo = expectSuccess(await undoFileChanges({ artifacts: stored(a, b) }, world.engine()));
    const racing = new RacingFileSystem(world.filesystem, async (operation, path) => {
      if (operation === 'write' && path === world.path('two/b.txt')) await rename(world.path('two'), world.path('two-moved'));
    });

    const outcome = await reapplyFileChanges({ artifacts: stored(...undo.artifacts) }, world.engine({ filesystem: racing }));

    const failed = expectFailure(outcome, 'failed');
    expect(failed.message).toMatch(/^Cannot reapply: writing two\/b\.txt \(change call_2\) failed \(not_found\): .*The files already changed were put back\.$/);
    expect(await world.read('one/a.txt')).toBe('a0\n'); // call_1's reapply was rolled back
    expect(await readFile(world.path('two-moved/b.txt'), 'utf8')).toBe('b0\n');
  });

  it('RollbackFailed: when putting a finished step back meets an outside change, it is reported and not overwritten', async () => {
    await writeFile(world.path('a.txt'), 'a0\n');
    await writeFile(world.path('b.txt'), 'b0\n');
    const a = await world.change('call_1', 'a.txt', 'a1\n');
    const b = await world.change('call_2', 'b.txt', 'b1\n');
    // Undo: b first (done), then a — just before a's step the outsider edits both files.
    const racing = new RacingFileSystem(world.filesystem, async (operation, path) => {
      if (operation === 'write' && path === world.path('a.txt')) {
        await writeFile(world.path('a.txt'), 'a, outsider\n');
        await writeFile(world.path('b.txt'), 'b, outsider\n');
      }
    });

    const outcome = await undoFileChanges({ artifacts: stored(a, b) }, world.engine({ filesystem: racing }));

    const rollbackFailed = expectFailure(outcome, 'rollback_failed');
    expect(await world.read('a.txt')).toBe('a, outsider\n');
    expect(await world.read('b.txt')).toBe('b, outsider\n');
    expect(rollbackFailed.unrestored).toEqual([
      {
        changeId: 'call_2',
        realPath: world.path('b.txt'),
        displayPath: 'b.txt',
        leftHash: sha256('b0\n'),
        originalHash: sha256('b1\n'),
        reason: 'the file was changed meanwhile (nothing overwritten)',
      },
    ]);
    expect(rollbackFailed.message).toBe(
      'RollbackFailed: undo stopped at a.txt (change call_1): the file was changed meanwhile (nothing overwritten). Putting back the files it had already changed failed too — b.txt (change call_2): the file was changed meanwhile (nothing overwritten). Those files are not as they were before the undo; look at them before trying again.',
    );
  });

  it('writes go through the fence: a change in a hard-protected folder is never undone', async () => {
    const settings = join(world.home, '.openwork', 'config.json');
    await writeFile(settings, '{"a":2}\n');
    // A record claiming a tool changed the OpenWork home (tools cannot; a forged or stale record).
    const forged = createFileChange({
      changeId: 'call_1',
      path: settings,
      realPath: settings,
      displayPath: settings,
      before: Buffer.from('{"a":1}\n'),
      after: Buffer.from('{"a":2}\n'),
    });
    for (const mode of ['workspace-write', 'full-access'] as const) {
      const denied = expectFailure(await undoFileChanges({ artifacts: stored(forged) }, world.engine({ mode })), 'permission_denied');
      expect(denied.message).toBe(`Cannot undo change call_1: Permission denied: ${settings} is protected and cannot be changed by tools. Nothing was changed.`);
    }
    expect(await readFile(settings, 'utf8')).toBe('{"a":2}\n');
  });

  it('writes go through the fence with an exact grant per file: an approved change outside the workspace can be undone', async () => {
    const report = join(world.outside, 'report.txt');
    await writeFile(report, 'draft\n');
    const change = await world.change('call_1', report, 'final\n'); // the write had an approved grant
    for (const mode of ['read-only', 'workspace-write'] as const) {
      const undo = expectSuccess(await undoFileChanges({ artifacts: stored(change) }, world.engine({ mode })));
      expect(await readFile(report, 'utf8')).toBe('draft\n');
      expectSuccess(await reapplyFileChanges({ artifacts: stored(...undo.artifacts) }, world.engine({ mode })));
      expect(await readFile(report, 'utf8')).toBe('final\n');
    }
  });

  it('an approved change to a sensitive file (tier 3) is undone through its exact grant, in the workspace too', async () => {
    await mkdir(world.path('.git/hooks'), { recursive: true });
    const hook = world.path('.git/hooks/pre-commit');
    const change = await world.change('call_1', hook, '#!/bin/sh\nexit 0\n'); // the write had an approved grant
    expectSuccess(await undoFileChanges({ artifacts: stored(change) }, world.engine()));
    expect(await exists(hook)).toBe(false);
  });

  it('the grant is exact: a folder on the way swapped for a link is a conflict, and the link target is untouched', async () => {
    await mkdir(world.path('src'));
    await writeFile(world.path('src/a.txt'), 'before\n');
    const change = await world.change('call_1', 'src/a.txt', 'after\n');
    // The folder is replaced by a link to a folder outside with a file of the same content.
    await rename(world.path('src'), world.path('src-old'));
    await writeFile(join(world.outside, 'a.txt'), 'after\n');
    await symlink(world.outside, world.path('src'));

    const conflict = expectFailure(await undoFileChanges({ artifacts: stored(change) }, world.engine({ mode: 'full-access' })), 'conflict');

    expect(conflict.conflicts[0]?.reason).toBe(`it now resolves to ${join(world.outside, 'a.txt')} (a folder on the way was replaced by a link)`);
    expect(await readFile(join(world.outside, 'a.txt'), 'utf8')).toBe('after\n');
  });

  it('undo waits for the write lock of the file, shared with write and edit', async () => {
    await writeFile(world.path('locked.txt'), 'v0\n');
    const change = await world.change('call_1', 'locked.txt', 'v1\n');
    let release!: () => void;
    const held = world.writeLocks.withLock(world.path('locked.txt'), () => new Promise<void>((resolve) => (release = resolve)));
    const undo = undoFileChanges({ artifacts: stored(change) }, world.engine());
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(await world.read('locked.txt')).toBe('v1\n'); // still waiting
    release();
    await held;
    expectSuccess(await undo);
    expect(await world.read('locked.txt')).toBe('v0\n');
    expect(world.writeLocks.size).toBe(0);
  });
});

describe('undo and reapply requests', () => {
  it('refuse unknown, repeated or already-undone change IDs, and change nothing', async () => {
    await writeFile(world.path('a.txt'), 'a0\n');
    const change = await world.change('call_1', 'a.txt', 'a1\n');
    const unknown = expectFailure(await undoFileChanges({ artifacts: stored(change), changeIds: ['call_9'] }, world.engine()), 'invalid_request');
    expect(unknown.message).toBe('there is no file change with ID "call_9" among the 1 given');
    const repeated = expectFailure(await undoFileChanges({ artifacts: stored(change), changeIds: ['call_1', 'call_1'] }, world.engine()), 'invalid_request');
    expect(repeated.message).toBe('change call_1 is requested twice');
    const notUndone = expectFailure(await reapplyFileChanges({ artifacts: stored(change) }, world.engine()), 'invalid_request');
    expect(notUndone.message).toBe('Cannot reapply: change call_1 (a.txt) is not undone, so there is nothing to reapply. Nothing was changed.');
    const undone = { ...change, change: { ...change.change, undone: true } };
    const already = expectFailure(await undoFileChanges({ artifacts: stored(undone) }, world.engine()), 'invalid_request');
    expect(already.message).toBe('Cannot undo: change call_1 (a.txt) is already undone. Nothing was changed.');
    expect(await world.read('a.txt')).toBe('a1\n');
  });

  it('refuse a damaged record: content that does not match its hash is never written', async () => {
    await writeFile(world.path('a.txt'), 'a0\n');
    const change = await world.change('call_1', 'a.txt', 'a1\n');
    const damaged = { ...change, change: { ...change.change, beforeContent: 'rm -rf /\n' } };
    const outcome = expectFailure(await undoFileChanges({ artifacts: stored(damaged) }, world.engine()), 'invalid_request');
    expect(outcome.message).toBe('Cannot undo: change call_1: its stored content does not match its hashes (the record is damaged). Nothing was changed.');
    for (const realPath of [`${world.workspace}/x/../a.txt`, `${world.path('a.txt')}\0`]) {
      const elsewhere = { ...change, change: { ...change.change, realPath } };
      const refused = expectFailure(await undoFileChanges({ artifacts: stored(elsewhere) }, world.engine()), 'invalid_request');
      expect(refused.message).toBe(`Cannot undo: change call_1: realPath ${JSON.stringify(realPath)} is not a canonical absolute path. Nothing was changed.`);
    }
    const misshapen = expectFailure(await undoFileChanges({ artifacts: [{ kind: 'file_change', change: { changeId: 'x' } }] }, world.engine()), 'invalid_request');
    expect(misshapen.message).toMatch(/^artifacts\[0\] is not a file_change artifact: change\.path: /);
    expect(await world.read('a.txt')).toBe('a1\n');
  });

  it('ignore artifacts of other kinds, so a whole message list can be passed', async () => {
    const change = await world.change('call_1', 'a.txt', 'a1\n');
    const outcome = expectSuccess(await undoFileChanges({ artifacts: [{ kind: 'image', url: 'x' }, ...stored(change), null] }, world.engine()));
    expect(outcome.changeIds).toEqual(['call_1']);
    const nothing = expectFailure(await undoFileChanges({ artifacts: [{ kind: 'image' }] }, world.engine()), 'invalid_request');
    expect(nothing.message).toBe('there is no file change to undo');
  });
});
