import type { ToolProgress, ToolProgressListener } from './tool-progress.js';

/** The most deliveries to an asynchronous listener that may be pending before updates are dropped. */
export const PROGRESS_IN_FLIGHT_LIMIT = 64;

/**
 * Wraps the host's listener so that progress can never block or fail a call (§8.3, `try_send`):
 * the listener is called synchronously inside `try`; a returned promise is not awaited, only
 * counted, and while 64 are pending further updates are dropped; a throw or rejection drops that
 * one update. After `close()` (the call has its result) nothing is delivered any more, so progress
 * never arrives after the final result.
 */
export class ToolProgressReporter {
  readonly #listener: ToolProgressListener | undefined;
  #pending = 0;
  #closed = false;
  #delivered = 0;
  #dropped = 0;

  constructor(listener: ToolProgressListener | undefined) {
    this.#listener = listener;
  }

  /** Offers one update; never throws, never waits. */
  report(progress: ToolProgress): void {
    if (this.#listener === undefined) return;
    if (this.#closed || this.#pending >= PROGRESS_IN_FLIGHT_LIMIT) {
      this.#dropped++;
      return;
    }
    let returned: unknown;
    let asynchronous: boolean;
    try {
      returned = this.#listener(progress);
      asynchronous = isThenable(returned);
    } catch {
      this.#dropped++;
      return;
    }
    if (asynchronous) {
      this.#pending++;
      Promise.resolve(returned).then(
        () => {
          this.#pending--;
          this.#delivered++;
        },
        () => {
          this.#pending--;
          this.#dropped++;
        },
      );
    } else {
      this.#delivered++;
    }
  }

  /** Stops delivery; later reports are dropped. */
  close(): void {
    this.#closed = true;
  }

  /** Updates the listener accepted (asynchronous ones once they settled). */
  get delivered(): number {
    return this.#delivered;
  }

  /** Updates lost to a full, throwing or closed listener. */
  get dropped(): number {
    return this.#dropped;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
