import type { ProcessOutcome } from './process-outcome.js';
import type { ProcessStdin } from './process-stdin.js';

/**
 * One piece of output, per stream, for live display (§8.3). Decoded as UTF-8 without splitting
 * characters across chunks. Live progress is limited to `PROGRESS_BYTES_PER_SECOND` per stream
 * (after a `PROGRESS_BURST_BYTES` burst); what is faster is left out of progress only.
 */
export interface ProcessProgress {
  readonly kind: 'stdout' | 'stderr';
  readonly chunk: string;
  /** Bytes of this stream left out of progress just before `chunk` (absent when none); `chunk` may then be empty, at the end. */
  readonly skippedBytes?: number;
}

/** Where the full output goes once it passes 16 KiB (§8.2). The file is created only then. */
export interface SpillTarget {
  /** File to write; missing parent directories are created. Builtins use `~/.openwork/spill/<session>/<call>.txt`. */
  readonly path: string;
  /** How the path is shown in the output text (e.g. `~/.openwork/spill/…`); defaults to `path`. */
  readonly displayPath?: string;
}

/** The options of one spawn. Nothing is inherited: the environment is exactly `env`. */
export interface ProcessSpawnOptions {
  /** Working directory of the child: an absolute path (a relative one is refused, never resolved against the Node process). */
  readonly cwd: string;
  /** The complete environment of the child; nothing from `process.env` is added (§4, §7.9). */
  readonly env: Readonly<Record<string, string>>;
  /** Cancellation: aborting kills the whole process group through the one terminate path (§5). */
  readonly signal?: AbortSignal;
  /** Kill the process group after this many milliseconds (a positive integer), through the same terminate path (§5). */
  readonly timeoutMs?: number;
  /**
   * Live output, per stream (§8.3). Called synchronously as data arrives and never awaited; a
   * throw or a rejected promise is dropped and never changes the outcome.
   */
  readonly onProgress?: (progress: ProcessProgress) => unknown;
  /**
   * Every chunk of merged output as it is read, not rate-limited — for callers that keep their
   * own bounded view while the process runs (background bash reads its output in parts). Called
   * synchronously; the chunk must not be changed; a throw is dropped and never changes the outcome.
   */
  readonly onOutput?: (chunk: Buffer) => void;
  /**
   * A pipe to type into the process (background bash); without it stdin is /dev/null.
   * The pipe closes when the process exits; one `ProcessStdin` per spawn.
   */
  readonly stdin?: ProcessStdin;
  /** Where to spill output above 16 KiB. Without it, long output is still cut but not saved. */
  readonly spill?: SpillTarget;
}

/**
 * Starts processes for the built-in tools (§4: tools never spawn directly). It runs exactly the
 * argv it is given; wrapping it in a sandbox is the caller's job.
 */
export interface ProcessBackend {
  spawn(argv: readonly string[], options: ProcessSpawnOptions): Promise<ProcessOutcome>;
}
