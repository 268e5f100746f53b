import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { undoFileChanges, type FileChange } from '../../index.js';
import { describe, expect, it } from 'vitest';
import { backgroundFixtures, backgroundTaskOf } from '../test-support/background-fixtures.js';
import type { BashFixture } from '../test-support/bash-fixture.js';
import { eventually } from '../test-support/process-table.js';

const { create: bashFixture } = backgroundFixtures();

/**
 * A watcher on inotify, as dev servers and build watchers use it: prints one line per change of
 * `watched.txt` with its new content. Python's ctypes reaches libc's inotify without a package.
 */
const watcher = `exec python3 -u -c '
import ctypes, os, struct
libc = ctypes.CDLL(None)
fd = libc.inotify_init()
libc.inotify_add_watch(fd, b".", 0x2 | 0x8 | 0x80 | 0x100)
print("watching", flush=True)
while True:
    data = os.read(fd, 4096)
    i = 0
    while i < len(data):
        wd, mask, cookie, n = struct.unpack_from("iIII", data, i)
        name = data[i + 16:i + 16 + n].rstrip(b"\\0").decode()
        i += 16 + n
        if name == "watched.txt":
            print("saw " + open("watched.txt").read().strip(), flush=True)
'`;

async function outputOf(fixture: BashFixture, taskId: string, needle: string, seenAlready: string, attempts = 20): Promise<string> {
  let seen = seenAlready;
  for (let attempt = 0; attempt < attempts && !seen.includes(needle); attempt += 1) {
    seen += ToolResult.text(await fixture.call('bash_output', { taskId, waitMs: 1000 }));
  }
  return seen;
}

describe('background tasks under staged writes (architecture §3.10)', () => {
  it("a watcher in a background task sees the model's edit of the file it watches, within a second", async () => {
    const fixture = await bashFixture();
    await writeFile(join(fixture.workspace, 'watched.txt'), 'first\n');
    const started = await fixture.call('bash', { command: watcher, runInBackground: true, yieldMs: 300, description: 'watcher' });
    expect(started.status, ToolResult.text(started)).toBe('succeeded');
    const { taskId } = backgroundTaskOf(started);
    expect(await outputOf(fixture, taskId, 'watching', ToolResult.text(started))).toContain('watching');

    expect(ToolResult.text(await fixture.call('read', { path: 'watched.txt' }))).toContain('first');
    const edited = await fixture.call('edit', { filePath: 'watched.txt', oldString: 'first', newString: 'second' });
    expect(edited.status, ToolResult.text(edited)).toBe('succeeded');
    // One bash_output waiting at most a second: the watcher's event is already there or arrives in it.
    const seen = ToolResult.text(await fixture.call('bash_output', { taskId, waitMs: 1000 }));
    expect(seen).toContain('saw second');
    await fixture.call('bash_kill', { taskId });
    // What the watcher saw equals the host: applying the task's layer changed nothing.
    expect(await readFile(join(fixture.workspace, 'watched.txt'), 'utf8')).toBe('second\n');
  });

  it("a running task's writes reach the host while it runs; a refused one never does and is reported", async () => {
    const fixture = await bashFixture();
    const command = 'echo built > out.txt; mkdir -p sub/.git/hooks; echo evil > sub/.git/hooks/pre-commit; echo ready; exec sleep 60';
    const started = await fixture.call('bash', { command, runInBackground: true, yieldMs: 300, description: 'builder' });
    const { taskId } = backgroundTaskOf(started);
    expect(await outputOf(fixture, taskId, 'ready', ToolResult.text(started))).toContain('ready');
    expect(await eventually(() => existsSync(join(fixture.workspace, 'out.txt')), 200)).toBe(true);
    expect(await readFile(join(fixture.workspace, 'out.txt'), 'utf8')).toBe('built\n');
    expect(existsSync(join(fixture.workspace, 'sub', '.git', 'hooks', 'pre-commit'))).toBe(false);
    const killed = ToolResult.text(await fixture.call('bash_kill', { taskId }));
    const after = killed + ToolResult.text(await fixture.call('bash_output', { taskId }));
    expect(after).toMatch(/not applied: .*sub\/\.git\/hooks/s);
    expect(existsSync(join(fixture.workspace, 'sub', '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it("a task's own links never lead the reflected edit out of its view: a file and a folder it swapped for links to the host stay untouched", async () => {
    const fixture = await bashFixture();
    const victim = join(fixture.outside, 'victim.txt');
    await writeFile(victim, 'keep\n');
    await writeFile(join(fixture.workspace, 'watched.txt'), 'first\n');
    await mkdir(join(fixture.workspace, 'dir'));
    await writeFile(join(fixture.workspace, 'dir', 'inner.txt'), 'first\n');
    // In its own view the task replaces the file and the folder by links to the host (absolute links).
    const command = `rm watched.txt && ln -s ${victim} watched.txt && rm -r dir && ln -s ${fixture.outside} dir && echo swapped; exec sleep 60`;
    const started = await fixture.call('bash', { command, runInBackground: true, yieldMs: 300, description: 'swapper' });
    const { taskId } = backgroundTaskOf(started);
    expect(await outputOf(fixture, taskId, 'swapped', ToolResult.text(started))).toContain('swapped');
    // Before the task's next sync pass the host still holds the file and the folder, and the edit
    // is written there and reflected into the task's view; once a pass has put the task's links on
    // the host (a slow machine), the file tools refuse a path through a link out of the workspace.
    // Either way nothing reaches the host folder the links name.
    await fixture.call('read', { path: 'watched.txt' });
    expect(['succeeded', 'denied']).toContain((await fixture.call('write', { path: 'watched.txt', content: 'model edit\n' })).status);
    await fixture.call('read', { path: 'dir/inner.txt' });
    expect(['succeeded', 'denied']).toContain((await fixture.call('write', { path: 'dir/inner.txt', content: 'model edit\n' })).status);
    await fixture.call('write', { path: 'dir/victim.txt', content: 'model edit\n' });
    expect(await readFile(victim, 'utf8')).toBe('keep\n');
    await fixture.call('bash_kill', { taskId });
    expect(await readFile(victim, 'utf8')).toBe('keep\n');
    expect(await readdir(fixture.outside)).toEqual(['victim.txt']);
  });

  it("a task's writes are file changes of the read that reports them (undo covers them); a file the user saves during the task stays, the task's version is a conflict in its output", async () => {
    const fixture = await bashFixture();
    await writeFile(join(fixture.workspace, 'notes.txt'), 'first\n');
    const command = 'echo built > made.txt && echo task >> notes.txt && echo wrote; exec sleep 60';
    const started = await fixture.call('bash', { command, runInBackground: true, yieldMs: 300, description: 'writer' });
    const { taskId } = backgroundTaskOf(started);
    // Every read of the task: its text, and the artifacts a session store would keep (JSON).
    const artifacts: { kind: string; change?: FileChange }[] = [];
    let seen = ToolResult.text(started);
    const readTask = async (tool: 'bash_output' | 'bash_kill', input: object): Promise<void> => {
      const result = await fixture.call(tool, { taskId, ...input }, { callId: `call_${tool}_${artifacts.length}_${seen.length}` });
      seen += ToolResult.text(result);
      artifacts.push(...(JSON.parse(JSON.stringify(result.artifacts)) as { kind: string; change?: FileChange }[]));
    };
    for (let attempt = 0; attempt < 20 && !seen.includes('wrote'); attempt += 1) await readTask('bash_output', { waitMs: 1000 });
    expect(seen).toContain('wrote');
    // The user saves notes.txt on the host while the task runs; the next sync must not overwrite it.
    await writeFile(join(fixture.workspace, 'notes.txt'), 'first\nuser\n');
    for (let attempt = 0; attempt < 20 && !seen.includes('conflict'); attempt += 1) await readTask('bash_output', { waitMs: 1000 });
    expect(seen).toMatch(/conflict: .*notes\.txt: the host changed this file during the call/s);
    expect(await readFile(join(fixture.workspace, 'notes.txt'), 'utf8')).toBe('first\nuser\n');
    await readTask('bash_kill', {});
    const changes = artifacts.flatMap((artifact) => (artifact.kind === 'file_change' && artifact.change !== undefined ? [artifact.change] : []));
    expect(changes.map((change) => [change.path, change.kind])).toEqual([['made.txt', 'created']]);
    const callId = changes[0]?.callId as string;
    const undone = await undoFileChanges({ artifacts, changeIds: [callId] }, { filesystem: fixture.session.filesystem, writeLocks: fixture.session.writeLocks, policy: fixture.policy() });
    expect(undone.ok, JSON.stringify(undone)).toBe(true);
    expect(existsSync(join(fixture.workspace, 'made.txt'))).toBe(false);
    expect(await readFile(join(fixture.workspace, 'notes.txt'), 'utf8')).toBe('first\nuser\n');
  });
});
