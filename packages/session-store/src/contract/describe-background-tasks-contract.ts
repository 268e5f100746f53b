import { describe, expect, it } from 'vitest';
import { MAX_BACKGROUND_TASK_TAIL, MAX_STORED_BACKGROUND_TASKS, type NewBackgroundTaskRecord } from '../background-task-record.js';
import { InvalidRecordError } from '../invalid-record-error.js';
import { SessionNotFoundError } from '../session-not-found-error.js';
import type { SessionStore } from '../session-store.js';
import { ROOT, type ContractStores } from './contract-stores.js';

function task(taskId: string, extra: Partial<NewBackgroundTaskRecord> = {}): NewBackgroundTaskRecord {
  return { taskId, command: 'python3 -m http.server 8000', state: 'running', exitCode: null, startedAt: '2030-01-01T00:00:00.000Z', agentRole: 'default', ...extra };
}

/**
 * Background bash: background task records (a task's final state and output tail survive its host): part
 * of the one `SessionStore` contract suite, run unchanged against every store.
 */
export function describeBackgroundTaskContract(stores: ContractStores): void {
  async function sessionIn(store: SessionStore, id = 'tasks'): Promise<string> {
    return (await store.createSession({ id, workspaceRoots: [ROOT] })).id;
  }

  describe('background task records (issue 26)', () => {
    it('saves a task when it starts and replaces it when it ends; a reopened store and a peer see the end', async () => {
      const store = await stores.create();
      const session = await sessionIn(store);
      const started = await store.saveBackgroundTask(session, task('bg-000001', { description: 'dev server' }));
      expect(started).toStrictEqual({
        sessionId: session,
        taskId: 'bg-000001',
        command: 'python3 -m http.server 8000',
        description: 'dev server',
        state: 'running',
        exitCode: null,
        problem: null,
        startedAt: '2030-01-01T00:00:00.000Z',
        endedAt: null,
        outputTail: '',
        agentRole: 'default',
        updatedAt: started.updatedAt,
      });
      const ended = await store.saveBackgroundTask(
        session,
        task('bg-000001', { description: 'dev server', state: 'killed', problem: 'by bash_kill', endedAt: '2030-01-01T00:01:00.000Z', outputTail: 'Serving HTTP on 127.0.0.1 ✓\n' }),
      );
      expect(ended).toMatchObject({ state: 'killed', problem: 'by bash_kill', endedAt: '2030-01-01T00:01:00.000Z', outputTail: 'Serving HTTP on 127.0.0.1 ✓\n' });
      expect(await store.listBackgroundTasks(session)).toStrictEqual([ended]);
      expect(await (await stores.reopen(store)).listBackgroundTasks(session)).toStrictEqual([ended]);
      expect(await (await stores.peer(store)).listBackgroundTasks(session)).toStrictEqual([ended]);
    });

    it('lists oldest start first, keeps only the most recent ones, and keeps the end of a long tail', async () => {
      const store = await stores.create();
      const session = await sessionIn(store);
      const total = MAX_STORED_BACKGROUND_TASKS + 2;
      for (let index = total - 1; index >= 0; index -= 1) {
        const second = String(index % 60).padStart(2, '0');
        const minute = String(Math.floor(index / 60)).padStart(2, '0');
        await store.saveBackgroundTask(session, task(`bg-${String(index).padStart(6, '0')}`, { startedAt: `2030-01-01T00:${minute}:${second}.000Z` }));
      }
      const listed = await store.listBackgroundTasks(session);
      expect(listed.map((record) => record.taskId)).toStrictEqual(Array.from({ length: MAX_STORED_BACKGROUND_TASKS }, (_, index) => `bg-${String(index + 2).padStart(6, '0')}`));
      const long = `${'a'.repeat(MAX_BACKGROUND_TASK_TAIL)}THE END`;
      const saved = await store.saveBackgroundTask(session, task('bg-long', { state: 'exited', exitCode: 3, startedAt: '2031-01-01T00:00:00.000Z', outputTail: long }));
      expect(saved.outputTail.length).toBe(MAX_BACKGROUND_TASK_TAIL);
      expect(saved.outputTail.endsWith('THE END')).toBe(true);
      expect((await store.listBackgroundTasks(session)).at(-1)).toStrictEqual(saved);
    });

    it('refuses a bad record and an unknown session, and changes nothing', async () => {
      const store = await stores.create();
      const session = await sessionIn(store);
      await expect(store.saveBackgroundTask(session, task('bg-1', { state: 'paused' as never }))).rejects.toBeInstanceOf(InvalidRecordError);
      await expect(store.saveBackgroundTask(session, task('bg-1', { exitCode: 1.5 }))).rejects.toBeInstanceOf(InvalidRecordError);
      await expect(store.saveBackgroundTask(session, task('bg-1', { startedAt: 'yesterday' }))).rejects.toBeInstanceOf(InvalidRecordError);
      await expect(store.saveBackgroundTask(session, task('', {}))).rejects.toBeInstanceOf(InvalidRecordError);
      await expect(store.saveBackgroundTask('nobody', task('bg-1'))).rejects.toBeInstanceOf(SessionNotFoundError);
      await expect(store.listBackgroundTasks('nobody')).rejects.toBeInstanceOf(SessionNotFoundError);
      expect(await store.listBackgroundTasks(session)).toStrictEqual([]);
    });

    it('goes with its session when the session is deleted', async () => {
      const store = await stores.create();
      const session = await sessionIn(store);
      await store.saveBackgroundTask(session, task('bg-1'));
      await store.deleteSession(session);
      await sessionIn(store);
      expect(await store.listBackgroundTasks(session)).toStrictEqual([]);
    });
  });
}
