/**
 * How a spawn ended (§7.9 table). `exited` includes non-zero exit codes and deaths by a signal
 * nobody here sent; `failed` is a start or pipe failure (an execution error, spill deleted);
 * `outcome_unknown` means the process group could not be confirmed gone after a timeout or
 * cancel (§5) and may still be running.
 */
export type ProcessStatus = 'exited' | 'timed_out' | 'cancelled' | 'outcome_unknown' | 'failed';

/** The spill file that holds the whole output (or its first `MAX_SPILL_BYTES`) (§8.2). */
export interface SpillRecord {
  /** The file as written (the caller's `spill.path`). It exists when the outcome is returned. */
  readonly path: string;
  /** Bytes in the file. */
  readonly bytesWritten: number;
  /** The output was longer than the cap; only its first `bytesWritten` bytes were saved. */
  readonly truncated: boolean;
}

/** Everything a caller needs to build the tool result, including the model-visible text (§7.9). */
export interface ProcessOutcome {
  readonly status: ProcessStatus;
  /** Exit code when the process exited by itself; `null` when killed by a signal or never started. */
  readonly exitCode: number | null;
  /** The signal that ended the process (`SIGKILL` after a timeout or cancel), else `null`. */
  readonly signal: string | null;
  /**
   * Merged stdout+stderr in arrival order: all of it up to 16 KiB, otherwise head, the
   * omitted-bytes marker, tail. Does not include the status line (`formatStatusLine`).
   */
  readonly output: string;
  /** Every byte the process wrote to stdout and stderr that was read. */
  readonly totalBytes: number;
  /** Bytes of output not shown in `output` (0 when nothing was cut). */
  readonly omittedBytes: number;
  /** Present only when a spill file exists; absent when none was needed or writing it failed (§8.2). */
  readonly spill?: SpillRecord;
  /** Why the spill file could not be written, when it could not; the output is still complete otherwise. */
  readonly spillError?: string;
  /** Wall time from spawn to outcome, in whole milliseconds. */
  readonly durationMs: number;
  /** The timeout the call ran with, if any (the status line of `timed_out` names it). */
  readonly timeoutMs?: number;
  /** Process (and process group) id, when the process started; useful when the outcome is unknown. */
  readonly pid?: number;
  /** Why the process failed to start or could not be confirmed terminated (`failed`, `outcome_unknown`). */
  readonly error?: string;
}
