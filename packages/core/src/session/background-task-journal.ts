import type { BackgroundTaskJournal, BackgroundTaskJournalEntry } from '@openwork/builtins';
import type { SessionStore } from '@openwork/session-store';

/**
 * Background bash (docs/decisions/0032-background-bash-tasks.md), "a task's final state and output tail are stored with the session": builtins' task
 * journal over the session store, so that after a restart `bash_output` says how a task ended
 * (`killed: the host stopped` for one still recorded as running).
 */
export function backgroundTaskJournal(store: SessionStore, sessionId: string): BackgroundTaskJournal {
  return {
    save: async (entry) => {
      await store.saveBackgroundTask(sessionId, entry);
    },
    list: async () =>
      (await store.listBackgroundTasks(sessionId)).map(
        (record): BackgroundTaskJournalEntry => ({
          taskId: record.taskId,
          command: record.command,
          ...(record.description === null ? {} : { description: record.description }),
          state: record.state,
          exitCode: record.exitCode,
          ...(record.problem === null ? {} : { problem: record.problem }),
          startedAt: record.startedAt,
          ...(record.endedAt === null ? {} : { endedAt: record.endedAt }),
          outputTail: record.outputTail,
          agentRole: record.agentRole,
        }),
      ),
  };
}
