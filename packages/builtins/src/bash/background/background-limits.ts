/** At most this many tasks of one session run at once; a ninth start is refused, naming the running ones. */
export const MAX_RUNNING_TASKS = 8;

/** How long `bash { runInBackground: true }` waits for the first output when the call gives no `yieldMs`. */
export const DEFAULT_YIELD_MS = 1_000;

/** The longest `yieldMs` of bash and `waitMs` of bash_output; larger values are clamped. */
export const MAX_WAIT_MS = 30_000;

/** A `description` is a short text for the person (approvals, progress, the task list). */
export const MAX_DESCRIPTION_LENGTH = 200;

/**
 * Ended tasks a session remembers (state and unread tail, at most 16 KiB each); older ended ones
 * are forgotten first, so a model starting short tasks forever cannot grow the session without end.
 */
export const MAX_ENDED_TASKS_KEPT = 64;

/** The most text one `bash_input` call types (UTF-8 bytes). */
export const MAX_INPUT_BYTES = 64 * 1024;

/** How long `bash_input` waits for the task's answer at most: its first output, then a pause. */
export const ANSWER_WAIT_MS = 3_000;

/** The pause in a task's output after which `bash_input` takes its answer as complete. */
export const ANSWER_QUIET_MS = 200;
