import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '@openwork/tooling/free-port';
import { createCliSandbox, type CliSandbox } from '../test-support/cli-sandbox.js';
import {
  backgroundTaskId,
  eventually,
  folderTree,
  lineText,
  membersOfGroups,
  processesWith,
  processGroupsOf,
  startSession,
  type SessionProcess,
} from '../test-support/session-process.js';

// Background bash through `openwork session` (a real process, the real bubblewrap sandbox, SQLite store).

let sandbox: CliSandbox;
const sessions: SessionProcess[] = [];
beforeEach(async () => {
  sandbox = await createCliSandbox();
  await mkdir(join(sandbox.workspace, '.git'), { recursive: true });
  await writeFile(join(sandbox.workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
});
afterEach(async () => {
  for (const session of sessions.splice(0)) {
    if (session.child.exitCode === null && session.child.signalCode === null) await session.end();
  }
  await sandbox.remove();
});

function session(args?: readonly string[]): SessionProcess {
  const started = startSession(sandbox, args);
  sessions.push(started);
  return started;
}

/** bash_output until `needle` shows up in `seen` or a part read after it; returns `seen` and every part read, in order. */
async function readUntil(host: SessionProcess, taskId: string, needle: string, seen?: string): Promise<string[]> {
  const parts: string[] = seen === undefined ? [] : [seen];
  for (let attempt = 0; attempt < 20 && !parts.join('\n').includes(needle); attempt += 1) parts.push(lineText(await host.call('bash_output', { taskId, waitMs: 30_000 })));
  return parts;
}

describe('openwork session: background bash', { timeout: 120_000 }, () => {
  it('a dev server in the background is reached by a later foreground curl, then killed', async () => {
    const host = session();
    await writeFile(join(sandbox.workspace, 'hello.txt'), 'hello over http\n');
    const port = await freePort();
    const started = await host.call('bash', { command: `exec python3 -u -m http.server ${port} --bind 127.0.0.1`, runInBackground: true, yieldMs: 1_000, description: 'dev server' });
    expect(started.status, lineText(started)).toBe('succeeded');
    const taskId = backgroundTaskId(started);
    expect(lineText(started)).toContain(`task ${taskId}`);
    expect((await readUntil(host, taskId, 'Serving HTTP', lineText(started))).join('\n')).toContain('Serving HTTP');
    const curl = await host.call('bash', { command: `curl -s --max-time 10 http://127.0.0.1:${port}/hello.txt`, description: 'fetch a page' });
    expect(lineText(curl)).toContain('hello over http');
    expect((await readUntil(host, taskId, 'GET /hello.txt')).join('\n')).toContain('"GET /hello.txt HTTP/1.1" 200');
    const killed = await host.call('bash_kill', { taskId });
    expect(lineText(killed)).toContain(`[task ${taskId}: killed by bash_kill]`);
    expect(killed.artifacts[0]).toMatchObject({ kind: 'background_task', taskId, state: 'killed' });
    expect(await host.end()).toBe(0);
  });

  it('a watcher is read in three parts, each with only what it printed since the last read', async () => {
    const host = session();
    const watcher = 'prev=; while :; do cur=$(cat watched.txt 2>/dev/null); if [ "$cur" != "$prev" ]; then echo "changed: $cur"; prev=$cur; fi; sleep 0.05; done';
    const started = await host.call('bash', { command: watcher, runInBackground: true, yieldMs: 200, description: 'file watcher' });
    const taskId = backgroundTaskId(started);
    const parts: string[] = [];
    for (const word of ['one', 'two', 'three']) {
      // The model's writes: a running task sees them through its overlay (staged writes).
      await host.call('write', { path: 'watched.txt', content: word });
      parts.push((await readUntil(host, taskId, `changed: ${word}`)).join('\n'));
    }
    expect(parts[0]).toContain('changed: one');
    expect(parts[1]).toContain('changed: two');
    expect(parts[1]).not.toContain('changed: one');
    expect(parts[2]).toContain('changed: three');
    expect(parts[2]).not.toMatch(/changed: (one|two)/);
    await host.call('bash_kill', { taskId });
    expect(await host.end()).toBe(0);
  });

  it('a REPL (bc) and a read -p prompt on a terminal, driven through bash_input', async () => {
    const host = session();
    const bc = backgroundTaskId(await host.call('bash', { command: 'exec bc -q', runInBackground: true, tty: true, yieldMs: 500, description: 'calculator' }));
    const answer = await host.call('bash_input', { taskId: bc, input: '6 * 7\n' });
    expect(answer.status).toBe('succeeded');
    const text = (await readUntil(host, bc, '42', lineText(answer))).join('\n');
    expect(text).toMatch(/^42$/m);
    expect(text).not.toMatch(/[\x1b\r]/);
    const quit = await host.call('bash_input', { taskId: bc, input: 'quit\n' });
    expect((await readUntil(host, bc, `[task ${bc}: exited 0]`, lineText(quit))).join('\n')).toContain(`[task ${bc}: exited 0]`);

    const asked = await host.call('bash', { command: 'read -r -p "overwrite? [y/N] " reply; echo "reply=$reply"', runInBackground: true, tty: true, yieldMs: 1_000 });
    const prompt = backgroundTaskId(asked);
    expect((await readUntil(host, prompt, 'overwrite? [y/N]', lineText(asked))).join('\n')).toContain('overwrite? [y/N]');
    const replied = await host.call('bash_input', { taskId: prompt, input: 'y\n' });
    expect((await readUntil(host, prompt, 'reply=y', lineText(replied))).join('\n')).toMatch(/^reply=y$/m);
    expect(await host.end()).toBe(0);
  });

  it('at most 8 tasks run at once: the ninth is refused, naming the eight, and nothing runs', async () => {
    const host = session();
    const ids: string[] = [];
    for (let index = 0; index < 8; index += 1) ids.push(backgroundTaskId(await host.call('bash', { command: `sleep 60 # task-${index}`, runInBackground: true, yieldMs: 0 })));
    const ninth = await host.call('bash', { command: 'touch ninth-ran', runInBackground: true, yieldMs: 0 });
    expect(ninth.status).toBe('failed');
    expect(ninth.error?.code).toBe('execution_failed');
    for (const id of ids) expect(ninth.error?.message).toContain(id);
    expect(folderTree(sandbox.workspace)).not.toContain('ninth-ran');
    // A failed call makes the stream's exit status 1 (the session command's rule).
    expect(await host.end()).toBe(1);
  });

  it('kill -9 of the host with two tasks running leaves no process and no placeholder; the next host says how they ended', { timeout: 120_000 }, async () => {
    const token = `bg-session-${randomUUID()}`;
    const before = folderTree(sandbox.workspace);
    const host = session();
    const ids = [];
    for (const index of [1, 2]) ids.push(backgroundTaskId(await host.call('bash', { command: `echo started-${index}; sleep 300; : ${token}`, runInBackground: true, yieldMs: 0 })));
    const sessionId = await host.sessionId();
    expect(await eventually(() => processesWith(token).length >= 4, 600)).toBe(true);
    const groups = processGroupsOf(processesWith(token));
    expect(groups.length).toBeGreaterThanOrEqual(2);

    host.child.kill('SIGKILL');
    await new Promise((resolve) => host.child.once('close', resolve));
    // bwrap --die-with-parent ends each sandbox with its host; the reaper removes the placeholders.
    expect(await eventually(() => processesWith(token).length === 0 && membersOfGroups(groups).length === 0, 600)).toBe(true);
    expect(await eventually(() => JSON.stringify(folderTree(sandbox.workspace)) === JSON.stringify(before), 600)).toBe(true);

    const next = session(['--session', sessionId]);
    const first = await next.call('bash_output', { taskId: ids[0] });
    expect(first.status).toBe('succeeded');
    expect(lineText(first)).toContain(`[task ${ids[0]}: killed: the host stopped]`);
    const listed = lineText(await next.call('bash_output', {}));
    expect(listed).toContain(`[task ${ids[1]}: killed: the host stopped]`);
    expect(await next.end()).toBe(0);
  });

  it('a hard reset typed in two parts into a background shell is judged as the whole line: with no one to ask, refused (docs/decisions/0091)', async () => {
    const host = session();
    const shell = backgroundTaskId(await host.call('bash', { command: 'exec bash --norc', runInBackground: true, yieldMs: 0, description: 'a shell' }));
    expect((await host.call('bash_input', { taskId: shell, input: 'git reset ' })).status).toBe('succeeded');
    const refused = await host.call('bash_input', { taskId: shell, input: '--hard\n' });
    expect(refused.status).toBe('denied');
    expect(lineText(refused)).toContain('could not be asked');
    const tty = backgroundTaskId(await host.call('bash', { command: 'exec bash --norc -i', runInBackground: true, tty: true, yieldMs: 0, description: 'a terminal shell' }));
    const edited = await host.call('bash_input', { taskId: tty, input: 'echo harmless\u0015git reset --hard HEAD\n' });
    expect(edited.status).toBe('denied');
  });
});
