import { SCAN_TIMEOUT_MS } from './search-limits.js';

/**
 * The 30-second limit of one grep or glob (§7.6, §9 `SCAN_TIMEOUT`), shortened by the host's
 * deadline for the call (§5), and the call's cancellation: `reached()` is what the walk and the
 * scanners ask per directory, per file and per match.
 */
export class ScanLimit {
  /** Epoch milliseconds after which the scan stops. */
  readonly deadline: number;
  /** The length of the limit, for the footer ("timed out after 30s"). */
  readonly milliseconds: number;
  readonly #signal: AbortSignal;
  #asked = 0;
  #aborted = false;

  constructor(signal: AbortSignal, hostDeadline: number | undefined, now = Date.now()) {
    this.#signal = signal;
    this.deadline = Math.min(now + SCAN_TIMEOUT_MS, hostDeadline ?? Number.POSITIVE_INFINITY);
    this.milliseconds = Math.max(0, this.deadline - now);
  }

  get cancelled(): boolean {
    return this.#signal.aborted;
  }

  /** The time is up (and the call was not cancelled). */
  get timedOut(): boolean {
    return !this.#signal.aborted && Date.now() > this.deadline;
  }

  /**
   * Asked per folder, file and match. The signal is read every 16th time: reading `aborted` of a
   * signal combined with `AbortSignal.any` walks its sources each time (4 % of a grep's walk,
   * search performance), and 16 more files or matches after a cancellation cost nothing a user can see.
   */
  reached(): boolean {
    if (this.#aborted) return true;
    if ((this.#asked++ & 15) === 0 && this.#signal.aborted) this.#aborted = true;
    return this.#aborted || Date.now() > this.deadline;
  }
}
