import { ToolResult, type ToolResult as Result } from '@openwork/tools-contract';
import { describe, expect, it } from 'vitest';
import { backgroundFixtures, backgroundTaskOf } from '../test-support/background-fixtures.js';
import type { BackgroundTaskJournal, BackgroundTaskJournalEntry } from './background-task-journal.js';
import { BackgroundTasks } from './background-tasks.js';

const { create, made: fixtures } = backgroundFixtures();

function taskId(result: Result): string {
  return backgroundTaskOf(result).taskId;
}

/** A journal kept in memory, as a store would keep it (one entry per task id, last save wins). */
class MemoryJournal implements BackgroundTaskJournal {
  readonly entries = new Map<string, BackgroundTaskJournalEntry>();
  async save(entry: BackgroundTaskJournalEntry): Promise<void> {
    this.entries.set(entry.taskId, entry);
  }
  async list(): Promise<readonly BackgroundTaskJournalEntry[]> {
    return [...this.entries.values()];
  }
}

describe('whose tasks a role reaches', () => {
  it("an explorer reads, types into and stops only the tasks it started, never the default agent's", async () => {
    const tasks = new BackgroundTasks();
    const main = await create({ backgroundTasks: tasks });
    const explorer = await create({ backgroundTasks: tasks, agent: 'explorer' });
    const theirs = taskId(await main.call('bash', { command: 'sleep 60', runInBackground: true, yieldMs: 0, description: 'main task' }));
    const own = taskId(await explorer.call('bash', { command: 'cat', runInBackground: true, yieldMs: 0 }));

    for (const tool of ['bash_output', 'bash_input', 'bash_kill'] as const) {
      const refused = await explorer.call(tool, tool === 'bash_input' ? { taskId: theirs, input: 'x\n' } : { taskId: theirs });
      expect(refused.error?.code, tool).toBe('invalid_arguments');
      expect(ToolResult.text(refused)).toContain(`No background task "${theirs}"`);
      expect(ToolResult.text(refused)).not.toContain('main task');
    }
    expect(tasks.get(theirs)?.state).toBe('running');
    expect(ToolResult.text(await explorer.call('bash_output', {}))).not.toContain(theirs);

    const typed = await explorer.call('bash_input', { taskId: own, input: 'echo from explorer\n' });
    expect(ToolResult.text(typed)).toContain('echo from explorer');
    expect((await explorer.call('bash_kill', { taskId: own })).status).toBe('succeeded');
    expect(tasks.get(own)?.state).toBe('killed');
    // The default agent sees every task of the session, the explorer's too.
    const listed = ToolResult.text(await main.call('bash_output', {}));
    expect(listed).toContain(theirs);
    expect(listed).toContain(own);
  });
});

describe('a task outlives nothing, but its record does', () => {
  it('after a restart bash_output says how each task ended: its own end, or killed: the host stopped', async () => {
    const journal = new MemoryJournal();
    const first = await create({ backgroundTasks: new BackgroundTasks({ journal }) });
    const ended = taskId(await first.call('bash', { command: 'echo bye; exit 4', runInBackground: true, yieldMs: 5_000 }));
    const closed = taskId(await first.call('bash', { command: 'echo unread-before-close; sleep 60', runInBackground: true, yieldMs: 0 }));
    // Unread when the session closes: the record keeps it.
    while ((first.session.backgroundTasks.get(closed)?.unreadBytes ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await first.session.backgroundTasks.close();
    expect(journal.entries.get(closed)).toMatchObject({ state: 'killed', problem: 'because its session closed' });
    expect(journal.entries.get(closed)?.outputTail).toContain('unread-before-close');
    // A host killed with -9 never saves the end: the record stays as the start saved it.
    journal.entries.set('bg-abcdef', { taskId: 'bg-abcdef', command: 'npm run dev', description: 'dev server', state: 'running', exitCode: null, startedAt: new Date().toISOString(), agentRole: 'default' });

    const second = await create({ backgroundTasks: new BackgroundTasks({ journal }) });
    const stopped = await second.call('bash_output', { taskId: 'bg-abcdef' });
    expect(stopped.status).toBe('succeeded');
    expect(ToolResult.text(stopped)).toContain('[task bg-abcdef: killed: the host stopped]');
    expect(stopped.artifacts[0]).toMatchObject({ kind: 'background_task', taskId: 'bg-abcdef', state: 'killed' });
    expect(ToolResult.text(await second.call('bash_output', { taskId: ended }))).toContain(`[task ${ended}: exited 4]`);
    const killed = ToolResult.text(await second.call('bash_output', { taskId: closed }));
    expect(killed).toContain('unread-before-close');
    expect(killed).toContain(`[task ${closed}: killed because its session closed]`);
    const list = ToolResult.text(await second.call('bash_output', {}));
    expect(list).toContain('[task bg-abcdef: killed: the host stopped] dev server');
    const input = await second.call('bash_input', { taskId: 'bg-abcdef', input: 'y\n' });
    expect(input.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(input)).toContain('it ran in an earlier openwork process and is not running now');
  });
});
