import type { BackgroundTaskState } from './background-task-state.js';

/** A task as a journal keeps it: the shape of `@openwork/session-store`'s `NewBackgroundTaskRecord`. */
export interface BackgroundTaskJournalEntry {
  readonly taskId: string;
  readonly command: string;
  readonly description?: string;
  readonly state: BackgroundTaskState;
  readonly exitCode: number | null;
  readonly problem?: string;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly endedAt?: string;
  /** The end of what it printed that nobody read when it ended (at most 16 KiB). */
  readonly outputTail?: string;
  readonly agentRole: string;
}

/**
 * Where a session's background tasks are recorded beyond this process ("a task's final
 * state and output tail are stored with the session", docs/decisions/0032-background-bash-tasks.md). Core implements it over its session store;
 * without one, tasks are known only while this process runs. A task is saved when it starts
 * (`running`) and again when it ends; a record still `running` once its process is gone means its
 * host stopped while it ran — and the task with it, since no task outlives its owner.
 */
export interface BackgroundTaskJournal {
  save(entry: BackgroundTaskJournalEntry): Promise<void>;
  /** Every recorded task of the session, oldest first. */
  list(): Promise<readonly BackgroundTaskJournalEntry[]>;
}
