/** Bytes of merged output kept from the start (§7.9, §9 `CAPTURE_HEAD_BYTES`). */
export const CAPTURE_HEAD_BYTES = 2 * 1024;

/** Bytes of merged output kept from the end; the tail is what tells a failed build from a good one (§7.9, §9 `CAPTURE_TAIL_BYTES`). */
export const CAPTURE_TAIL_BYTES = 14 * 1024;

/** Output above this many bytes is cut in the middle and spilled to disk (§7.9, §8.2: 16,384 bytes). */
export const SPILL_THRESHOLD_BYTES = CAPTURE_HEAD_BYTES + CAPTURE_TAIL_BYTES;

/** A spill file never grows past this; further output is counted, not written (§8.2, §9 `MAX_SPILL_BYTES`). */
export const MAX_SPILL_BYTES = 64 * 1024 * 1024;

/**
 * After the process exits, the pipes are read until end of file, but no longer than they stay
 * quiet for this many ms: a background child that inherited stdout keeps the pipe open forever,
 * and the call must not wait for it (peers.md "Processes").
 */
export const PIPE_DRAIN_MS = 200;

/** After the process exits, the pipes are read for at most this long in all (a background child that keeps writing). */
export const PIPE_DRAIN_LIMIT_MS = 2_000;

/** How long `terminateProcessGroup` waits for the SIGKILLed leader to exit before calling the outcome unknown (§5). */
export const TERMINATE_WAIT_MS = 5_000;

/**
 * Live progress (§8.3) decodes and reports at most this many bytes per second and stream on
 * average; output beyond it is not reported live (the result still has head, tail and spill).
 * Nobody reads a terminal at more than this, core's queue holds only 64 updates, and decoding
 * every byte of a `yes` or a `cat` of a huge file into strings cost more than the capture itself.
 */
export const PROGRESS_BYTES_PER_SECOND = 1024 * 1024;

/** Bytes per stream that may be reported at once before the average rate applies. */
export const PROGRESS_BURST_BYTES = 256 * 1024;
