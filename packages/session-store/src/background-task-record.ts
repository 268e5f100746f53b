/** Background bash: where a background task of a session stands, as a store keeps it. */
export type StoredBackgroundTaskState = 'running' | 'exited' | 'killed' | 'failed';

export const STORED_BACKGROUND_TASK_STATES: readonly StoredBackgroundTaskState[] = Object.freeze(['running', 'exited', 'killed', 'failed']);

/** A session keeps at most this many task records; saving one more forgets the oldest (by start). */
export const MAX_STORED_BACKGROUND_TASKS = 64;
/** At most this many characters of a task's output tail are kept (its last 16 KiB, as the model saw them). */
export const MAX_BACKGROUND_TASK_TAIL = 16_384;
/** At most this many characters of a task's command are kept (the rest is in the session's messages). */
export const MAX_BACKGROUND_TASK_COMMAND = 4_096;

/**
 * Input of `saveBackgroundTask`: a task as its host knows it now. Saved when it starts and again
 * when it ends, so that after the host stopped, a later host can say how it ended (`running`
 * then means the host stopped while it ran, background bash).
 */
export interface NewBackgroundTaskRecord {
  readonly taskId: string;
  readonly command: string;
  readonly description?: string;
  readonly state: StoredBackgroundTaskState;
  readonly exitCode: number | null;
  /** How it ended (`by bash_kill`, `the kernel sandbox failed …`), when that says more than the state. */
  readonly problem?: string;
  /** ISO 8601. */
  readonly startedAt: string;
  /** ISO 8601; absent while running. */
  readonly endedAt?: string;
  /** The end of its output the model had not read when it ended (at most 16 KiB). */
  readonly outputTail?: string;
  /** The agent role that started it (explorer reaches only its own, background bash). */
  readonly agentRole: string;
}

/** A task record as stored. */
export interface BackgroundTaskRecord {
  readonly sessionId: string;
  readonly taskId: string;
  readonly command: string;
  readonly description: string | null;
  readonly state: StoredBackgroundTaskState;
  readonly exitCode: number | null;
  readonly problem: string | null;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly outputTail: string;
  readonly agentRole: string;
  readonly updatedAt: string;
}
