/** What `untilAborted` rejects with when the signal aborts first. */
export const ABORTED: unique symbol = Symbol('openwork.core.aborted');

/**
 * `promise`, or a rejection with `ABORTED` as soon as `signal` aborts — so a turn never waits on
 * a model or an approver that ignores cancellation (§5: cancelling the turn ends it).
 */
export function untilAborted<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(ABORTED);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
