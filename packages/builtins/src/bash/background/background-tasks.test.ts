import { describe, expect, it } from 'vitest';
import { BackgroundTasks } from './background-tasks.js';
import { MAX_ENDED_TASKS_KEPT, MAX_RUNNING_TASKS } from './background-limits.js';

/** The table alone (no process): tasks are admitted and ended as the runner would. */
describe('BackgroundTasks', () => {
  it('admits at most 8 running tasks and names them when it refuses; an ended one frees its place', () => {
    const tasks = new BackgroundTasks();
    const admitted = Array.from({ length: MAX_RUNNING_TASKS }, (_, index) => tasks.admit({ id: tasks.newId(), command: `server ${index}` }));
    const refused = tasks.admit({ id: tasks.newId(), command: 'one more' });
    expect(refused).toMatchObject({ kind: 'limit' });
    expect('running' in refused && refused.running.map((task) => task.command)).toEqual(admitted.map((_, index) => `server ${index}`));
    const first = admitted[0];
    if (first === undefined || 'kind' in first) throw new Error('not admitted');
    first.fail('stopped for the test');
    expect(tasks.admit({ id: tasks.newId(), command: 'one more' })).not.toHaveProperty('kind');
  });

  it(`keeps at most ${MAX_ENDED_TASKS_KEPT} ended tasks, forgetting the oldest first; running ones are never forgotten`, () => {
    const tasks = new BackgroundTasks();
    const running = tasks.admit({ id: tasks.newId(), command: 'long' });
    const ids: string[] = [];
    for (let index = 0; index < MAX_ENDED_TASKS_KEPT + 10; index += 1) {
      const task = tasks.admit({ id: tasks.newId(), command: `short ${index}` });
      if ('kind' in task) throw new Error('not admitted');
      task.fail('ended');
      ids.push(task.id);
    }
    const kept = tasks.list().map((task) => task.id);
    expect(kept).toHaveLength(MAX_ENDED_TASKS_KEPT + 1);
    expect(kept).toContain('kind' in running ? '' : running.id);
    expect(kept.slice(1)).toEqual(ids.slice(-MAX_ENDED_TASKS_KEPT));
  });

  it('after close() nothing is admitted, and closing twice is harmless', async () => {
    const tasks = new BackgroundTasks();
    await tasks.close();
    await tasks.close();
    expect(tasks.admit({ id: tasks.newId(), command: 'late' })).toEqual({ kind: 'closed' });
  });
});
