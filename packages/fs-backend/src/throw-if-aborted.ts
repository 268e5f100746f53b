import { FileSystemError } from './file-system-error.js';

/** Checked between chunks and steps, so a cancelled call (§5) stops reading within one chunk. */
export function throwIfAborted(signal: AbortSignal | undefined, operation: string, path: string): void {
  if (signal?.aborted === true) {
    throw new FileSystemError({
      code: 'cancelled',
      path,
      message: `Cannot ${operation} ${path}: the operation was cancelled.`,
      cause: signal.reason,
    });
  }
}
