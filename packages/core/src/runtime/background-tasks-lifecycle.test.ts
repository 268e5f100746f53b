import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { InMemorySessionStore } from '@openwork/session-store';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';

const fixtures: CoreFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((entry) => entry.cleanup()));
});

/** Living (not zombie) processes whose command line holds `token`, from /proc. */
function living(token: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(token)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (!/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3))) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/**
 * Waits for `condition` — patiently: these are shared machines, and the test is about whether the
 * processes end, not how fast. Twenty seconds is far beyond any healthy start or kill (the test itself may take a minute).
 */
async function until(condition: () => boolean, patienceMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + patienceMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

/** The processes of `token` with their state, for a failure message. */
function described(token: string): string {
  return living(token)
    .map((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return `${pid} ${stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 120)}`;
      } catch {
        return `${pid} gone`;
      }
    })
    .join('; ');
}

describe('background bash tasks end with their owner', () => {
  it('runtime.close() and deleting a session kill every background task of it', async () => {
    const machine = await createCoreFixture();
    fixtures.push(machine);
    // One token per session: how many processes a task has at a given moment (bwrap, its child,
    // bash) does not matter, only whose they are.
    const keptToken = `core-bg-kept-${randomUUID()}`;
    const deletedToken = `core-bg-deleted-${randomUUID()}`;
    const kept = await machine.session();
    const deleted = await machine.session();
    for (const [session, token] of [
      [kept, keptToken],
      [kept, keptToken],
      [deleted, deletedToken],
    ] as const) {
      const { result } = await session.callTool('bash', { command: `sleep 300; : ${token}`, runInBackground: true, yieldMs: 0 });
      expect(result.status, ToolResult.text(result)).toBe('succeeded');
      expect(result.artifacts.find((artifact) => artifact.kind === 'background_task')).toMatchObject({ state: 'running' });
    }
    // bwrap and bash of each task carry its session's token.
    const started = await until(() => living(keptToken).length >= 4 && living(deletedToken).length >= 2);
    expect(started, `the tasks' processes: kept [${described(keptToken)}], to delete [${described(deletedToken)}]`).toBe(true);
    await machine.runtime.deleteSession(deleted.id);
    const ended = await until(() => living(deletedToken).length === 0);
    expect(ended, `still living after the session was deleted: [${described(deletedToken)}]`).toBe(true);
    // The other session's tasks are still running, and listed.
    expect(living(keptToken).length).toBeGreaterThanOrEqual(4);
    const { result: listed } = await kept.callTool('bash_output', {});
    expect(ToolResult.text(listed).match(/: running\]/g)).toHaveLength(2);

    await machine.runtime.close();
    expect(living(keptToken)).toEqual([]);
  });
});

describe('a task outlives nothing, its record does', () => {
  it('runtime.close() stores how each task ended; a later runtime on the same store says so, not "unknown task"', async () => {
    const store = new InMemorySessionStore();
    const first = await createCoreFixture({ store });
    fixtures.push(first);
    const session = await first.session();
    const { result: started } = await session.callTool('bash', { command: 'echo last words; touch printed; sleep 300', runInBackground: true, yieldMs: 0, description: 'long job' });
    const taskId = String(started.artifacts.find((artifact) => artifact.kind === 'background_task')?.['taskId']);
    // The output is unread when the runtime closes: the record keeps it.
    expect(await until(() => existsSync(join(first.workspace, 'printed')))).toBe(true);
    await first.runtime.close();
    const [record] = await store.listBackgroundTasks(session.id);
    expect(record).toMatchObject({ taskId, state: 'killed', problem: 'because its session closed', description: 'long job', agentRole: 'default' });
    expect(record?.outputTail).toContain('last words');

    const second = await createCoreFixture({ store, root: first.root });
    fixtures.push(second);
    const again = await second.runtime.openSession(session.id);
    const { result } = await again.callTool('bash_output', { taskId });
    expect(result.status).toBe('succeeded');
    expect(ToolResult.text(result)).toContain('last words');
    expect(ToolResult.text(result)).toContain(`[task ${taskId}: killed because its session closed]`);
  });

  it('after the session becomes an explorer, its calls no longer reach the tasks the default agent started', async () => {
    const machine = await createCoreFixture();
    fixtures.push(machine);
    const session = await machine.session();
    const { result: started } = await session.callTool('bash', { command: 'sleep 300', runInBackground: true, yieldMs: 0 });
    const taskId = String(started.artifacts.find((artifact) => artifact.kind === 'background_task')?.['taskId']);
    await session.update({ role: 'explorer' });
    const { result: refused } = await session.callTool('bash_kill', { taskId });
    expect(refused.error?.code).toBe('invalid_arguments');
    await session.update({ role: 'default' });
    const { result: killed } = await session.callTool('bash_kill', { taskId });
    expect(ToolResult.text(killed)).toContain(`[task ${taskId}: killed by bash_kill]`);
  });
});
