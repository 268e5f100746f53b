import { FileSystemError } from './file-system-error.js';

/** Options of {@link WriteLocks.withLock}. */
export interface WithLockOptions {
  /** Give up waiting (not running): the call rejects with a `cancelled` FileSystemError. */
  readonly signal?: AbortSignal;
}

/**
 * One async write lock per real path (§4 `write_locks`, §7.3): edit and write hold it across
 * read-check-compute-write, so two writers in this process never interleave on one file.
 * Waiters run in arrival order (FIFO). Share one instance per session between builtins and core;
 * keys are compared as given, so pass the canonical real path (`CheckedPath`). Not re-entrant:
 * taking the lock of a path again inside its own `fn` waits forever.
 */
export class WriteLocks {
  /** For each held path, the promise that settles when the last queued holder releases. */
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `fn` once every earlier holder of `realPath` has finished, and releases even if `fn` throws. */
  async withLock<T>(realPath: string, fn: () => Promise<T> | T, options: WithLockOptions = {}): Promise<T> {
    const { signal } = options;
    if (signal?.aborted === true) throw cancelled(realPath, signal);
    const previous = this.#tails.get(realPath);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The next waiter waits for us and for everyone before us, even if we stop waiting early.
    const tail = previous === undefined ? held : previous.then(() => held);
    this.#tails.set(realPath, tail);
    let acquired = false;
    try {
      if (previous !== undefined) await waitFor(previous, realPath, signal);
      acquired = true;
      return await fn();
    } finally {
      release();
      const forget = () => {
        if (this.#tails.get(realPath) === tail) this.#tails.delete(realPath);
      };
      // A waiter that gave up must not drop the entry while an earlier holder still runs.
      if (acquired) forget();
      else void tail.then(forget);
    }
  }

  /** Paths currently held or waited for; 0 when idle (entries never outlive their holders). */
  get size(): number {
    return this.#tails.size;
  }
}

function cancelled(path: string, signal: AbortSignal): FileSystemError {
  return new FileSystemError({
    code: 'cancelled',
    path,
    message: `Stopped waiting for the write lock of ${path}: the operation was cancelled.`,
    cause: signal.reason,
  });
}

function waitFor(previous: Promise<void>, path: string, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return previous;
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(cancelled(path, signal));
    signal.addEventListener('abort', onAbort, { once: true });
    void previous.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
