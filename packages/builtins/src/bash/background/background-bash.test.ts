import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ToolResult, type ToolResult as Result } from '@openwork/tools-contract';
import { describe, expect, it } from 'vitest';
import { freePort } from '@openwork/tooling/free-port';
import { backgroundFixtures, backgroundTaskOf } from '../test-support/background-fixtures.js';
import type { BashFixture } from '../test-support/bash-fixture.js';
import { eventually, livingProcessesWith } from '../test-support/process-table.js';

const { create: bashFixture } = backgroundFixtures();

const task = backgroundTaskOf;

/** bash_output until `needle` shows up (each read is bounded by waitMs; the loop bounds the attempts). */
async function readUntil(fixture: BashFixture, taskId: string, needle: string): Promise<string> {
  let seen = '';
  for (let attempt = 0; attempt < 20 && !seen.includes(needle); attempt += 1) {
    seen += ToolResult.text(await fixture.call('bash_output', { taskId, waitMs: 30_000 }));
  }
  return seen;
}

describe('background bash', () => {
  it('a dev server started in the background is reached by a later foreground curl, then killed', async () => {
    const fixture = await bashFixture();
    await writeFile(join(fixture.workspace, 'hello.txt'), 'hello from the workspace\n');
    const port = await freePort();
    const command = `exec python3 -u -m http.server ${port} --bind 127.0.0.1`;
    const started = await fixture.call('bash', { command, runInBackground: true, yieldMs: 500, description: 'dev server' });
    expect(started.status, ToolResult.text(started)).toBe('succeeded');
    const artifact = task(started);
    expect(artifact).toMatchObject({ kind: 'background_task', command, description: 'dev server', state: 'running', exitCode: null });
    expect(Number.isNaN(Date.parse(artifact.startedAt))).toBe(false);
    expect(ToolResult.text(started)).toContain(`task ${artifact.taskId}`);
    expect(ToolResult.text(started)).toContain(`bash_output {"taskId":"${artifact.taskId}"}`);

    // The sandbox shares the network by default: a later foreground call reaches the server.
    const curl = await fixture.text('bash', {
      command: `for i in $(seq 100); do curl -sf http://127.0.0.1:${port}/hello.txt && exit 0; sleep 0.1; done; exit 1`,
    });
    expect(curl).toMatch(/^hello from the workspace\n\[exit 0; duration \d+ ms\]$/);
    // The server's own log line for that request is the task's next output.
    expect(await readUntil(fixture, artifact.taskId, 'GET /hello.txt')).toContain('"GET /hello.txt HTTP/1.1" 200');

    const killed = await fixture.call('bash_kill', { taskId: artifact.taskId });
    expect(task(killed)).toMatchObject({ taskId: artifact.taskId, state: 'killed', exitCode: null });
    expect(ToolResult.text(killed)).toContain(`[task ${artifact.taskId}: killed by bash_kill]`);
    expect(livingProcessesWith(`http.server ${port}`)).toEqual([]);
    const after = await fixture.text('bash', { command: `curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:${port}/ || echo refused` });
    expect(after).toContain('refused');
    // Killing again reports how it ended, and changes nothing.
    expect(ToolResult.text(await fixture.call('bash_kill', { taskId: artifact.taskId }))).toContain('killed by bash_kill');
  });

  it('a watcher is read in three parts; each read returns only what is new, bounded like bash, the whole in the spill file', async () => {
    const fixture = await bashFixture();
    const command = [
      'for i in 1 2 3; do',
      '  while [ ! -e trigger-$i ]; do sleep 0.05; done',
      '  echo "change $i"',
      '  if [ $i = 2 ]; then seq 1 20000; fi',
      'done',
    ].join('\n');
    const started = await fixture.call('bash', { command, runInBackground: true, yieldMs: 0 });
    const { taskId } = task(started);
    expect(ToolResult.text(started)).toContain('(no new output)');

    // The triggers are the model's writes: a running task sees them through its overlay (staged writes).
    await fixture.call('write', { path: 'trigger-1', content: '' });
    const first = await readUntil(fixture, taskId, 'change 1');
    expect(first).toBe(`change 1\n[task ${taskId}: running]`);

    await fixture.call('write', { path: 'trigger-2', content: '' });
    // One read of the whole second part: wait until the session has received all of it.
    const numbers = Array.from({ length: 20000 }, (_, index) => `${index + 1}\n`).join('');
    const running = fixture.session.backgroundTasks.get(taskId);
    expect(await eventually(() => (running?.totalBytes ?? 0) >= `change 1\nchange 2\n${numbers}`.length, 400)).toBe(true);
    const second = ToolResult.text(await fixture.call('bash_output', { taskId }));
    expect(second).not.toContain('change 1');
    expect(second.startsWith('change 2\n1\n2\n')).toBe(true);
    // Above 16 KiB: head + marker + tail, and the task's whole output is in its spill file.
    expect(second).toMatch(/bytes omitted/);
    expect(second).toContain('19999\n20000\n');
    const spillPath = fixture.session.spill?.location(`background-${taskId}`).path ?? '';
    expect(second).toContain(fixture.session.spill?.location(`background-${taskId}`).displayPath ?? 'no spill');

    await fixture.call('write', { path: 'trigger-3', content: '' });
    const third = await readUntil(fixture, taskId, 'exited 0');
    expect(third).toMatch(/^change 3\n/);
    expect(third).toContain(`[task ${taskId}: exited 0]`);
    expect(third).not.toContain('20000');
    const whole = await readFile(spillPath, 'utf8');
    expect(whole).toBe(`change 1\nchange 2\n${numbers}change 3\n`);

    const done = await fixture.call('bash_output', { taskId });
    expect(task(done)).toMatchObject({ state: 'exited', exitCode: 0 });
    expect(ToolResult.text(done)).toBe(`(no new output)\n[task ${taskId}: exited 0]`);
  });

  it('says how to use the task tools once, in the result that starts the task; later reads and answers carry the state line alone', async () => {
    const fixture = await bashFixture();
    const command = 'echo started; while read -r line; do echo "got $line"; done';
    const started = await fixture.call('bash', { command, runInBackground: true, yieldMs: 300 });
    const { taskId } = task(started);
    const usage = `task ${taskId} keeps running in the background. Read what it prints next with bash_output {"taskId":"${taskId}"} (waitMs up to 30000 waits for new output); type into it with bash_input {"taskId":"${taskId}","input":"…\\n"}; stop it with bash_kill {"taskId":"${taskId}"}.`;
    expect(ToolResult.text(started)).toBe(`started\n[task ${taskId}: running]\n${usage}`);

    expect(ToolResult.text(await fixture.call('bash_output', { taskId }))).toBe(`(no new output)\n[task ${taskId}: running]`);
    expect(ToolResult.text(await fixture.call('bash_input', { taskId, input: 'one\n' }))).toBe(`got one\n[task ${taskId}: running]`);
    expect(ToolResult.text(await fixture.call('bash_output', { taskId, waitMs: 0 }))).toBe(`(no new output)\n[task ${taskId}: running]`);
    // An error keeps its own hint: typing into an ended task says how to start it again.
    expect(ToolResult.text(await fixture.call('bash_kill', { taskId }))).toBe(`(no new output)\n[task ${taskId}: killed by bash_kill]`);
    const refused = await fixture.call('bash_input', { taskId, input: 'two\n' });
    expect(refused.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(refused)).toContain('Start the command again with bash and runInBackground: true');
  });

  it('at most 8 running tasks per session: the ninth is refused naming the eight, and starts once one is killed', async () => {
    const fixture = await bashFixture();
    const token = `bg-limit-${randomUUID()}`;
    const ids: string[] = [];
    for (let index = 0; index < 8; index += 1) {
      ids.push(task(await fixture.call('bash', { command: `sleep 300; : ${token}`, runInBackground: true, yieldMs: 0, description: `sleeper ${index}` })).taskId);
    }
    const ninth = await fixture.call('bash', { command: `sleep 300; : ${token}`, runInBackground: true, yieldMs: 0 });
    expect(ninth.error?.code).toBe('execution_failed');
    const refusal = ToolResult.text(ninth);
    for (const id of ids) expect(refusal).toContain(id);
    expect(refusal).toContain('sleeper 7');
    expect(refusal).toContain('bash_kill');
    const list = ToolResult.text(await fixture.call('bash_output', {}));
    expect(list.split('\n')).toHaveLength(8);

    await fixture.call('bash_kill', { taskId: ids[0] });
    const again = await fixture.call('bash', { command: `sleep 300; : ${token}`, runInBackground: true, yieldMs: 0 });
    expect(task(again).state).toBe('running');

    // Closing the session kills every task (runtime.close() and session close call this).
    await fixture.session.backgroundTasks.close();
    expect(fixture.session.backgroundTasks.running()).toEqual([]);
    expect(await eventually(() => livingProcessesWith(token).length === 0)).toBe(true);
    const closed = await fixture.call('bash', { command: 'true', runInBackground: true });
    expect(ToolResult.text(closed)).toContain('closing');
  });

  it("cancelling a bash_output call ends its wait, not the task", async () => {
    const fixture = await bashFixture();
    const token = `bg-cancel-${randomUUID()}`;
    const { taskId } = task(await fixture.call('bash', { command: `sleep 300; : ${token}`, runInBackground: true, yieldMs: 0 }));
    const controller = new AbortController();
    const reading = fixture.call('bash_output', { taskId, waitMs: 30_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await reading;
    expect(fixture.session.backgroundTasks.get(taskId)?.state).toBe('running');
    expect(livingProcessesWith(token).length).toBeGreaterThan(0);
    await fixture.call('bash_kill', { taskId });
    expect(livingProcessesWith(token)).toEqual([]);
  }, 20_000);

  it('yieldMs ends early when the command ends; workdir is relative to the workspace root and checked', async () => {
    const fixture = await bashFixture();
    await mkdir(join(fixture.workspace, 'sub'));
    await writeFile(join(fixture.workspace, 'file.txt'), 'x');
    const quick = await fixture.call('bash', { command: 'pwd; exit 3', runInBackground: true, yieldMs: 30_000, workdir: 'sub' });
    expect(task(quick)).toMatchObject({ state: 'exited', exitCode: 3 });
    expect(ToolResult.text(quick)).toBe(`${join(fixture.workspace, 'sub')}\n[task ${task(quick).taskId}: exited 3]`);
    expect(await fixture.text('bash', { command: 'pwd', workdir: 'sub' })).toMatch(new RegExp(`^${join(fixture.workspace, 'sub')}\\n\\[exit 0; duration \\d+ ms\\]$`));
    const notFolder = await fixture.call('bash', { command: 'pwd', workdir: 'file.txt' });
    expect(notFolder.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(notFolder)).toContain('is not a folder');
    const missing = await fixture.call('bash', { command: 'pwd', workdir: 'nope' });
    expect(missing.status).not.toBe('succeeded');
    await mkdir(join(fixture.home, '.ssh'));
    const credentials = await fixture.call('bash', { command: 'pwd', workdir: '~/.ssh', runInBackground: true });
    expect(credentials.error?.code).toBe('permission_denied');
    expect(fixture.session.backgroundTasks.list().map((entry) => entry.state)).toEqual(['exited']);
    const unknown = await fixture.call('bash_output', { taskId: 'bg-000000' });
    expect(unknown.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(unknown)).toContain(task(quick).taskId);
  });
});
