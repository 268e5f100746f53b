/** Issue 26: at most this many tasks of one session run at once; a ninth start is refused, naming the running ones. */
export const MAX_RUNNING_TASKS = 8;

/** Issue 26: how long `bash { runInBackground: true }` waits for the first output when the call gives no `yieldMs`. */
export const DEFAULT_YIELD_MS = 1_000;

/** Issue 26: the longest `yieldMs` of bash and `waitMs` of bash_output; larger values are clamped. */
export const MAX_WAIT_MS = 30_000;

/** A `description` is a short text for the person (approvals, progress, the task list). */
export const MAX_DESCRIPTION_LENGTH = 200;

/**
 * Ended tasks a session remembers (state and unread tail, at most 16 KiB each); older ended ones
 * are forgotten first, so a model starting short tasks forever cannot grow the session without end.
 */
export const MAX_ENDED_TASKS_KEPT = 64;
