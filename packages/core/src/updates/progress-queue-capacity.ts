/** §8.3: core's progress channel holds 64 updates; when it is full, new progress is dropped. */
export const PROGRESS_QUEUE_CAPACITY = 64;

/**
 * Updates other than progress are never dropped; a subscriber that lets this many pile up (it
 * returned a promise that has not settled for that long) is treated as disconnected and removed,
 * so a dead consumer cannot hold results in memory for ever.
 */
export const MAX_PENDING_UPDATES = 4096;
