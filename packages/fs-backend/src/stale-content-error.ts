import { FileSystemError } from './file-system-error.js';

const marker = Symbol.for('openwork.fs-backend.stale-content-error');

/**
 * `atomicWrite` found something other than the expected content at the target just before the
 * rename, and did not overwrite it (§7.2, §7.3). The message starts with the edit tool's error
 * text so builtins can pass it on unchanged.
 */
export class StaleContentError extends FileSystemError {
  private readonly [marker] = true;
  /** The hash the caller expected; `null` meant "the target must not exist". */
  readonly expectedHash: string | null;
  /** SHA-256 of the regular file found at the target; `null` when there was none (missing, a symlink, a directory). */
  readonly actualHash: string | null;

  constructor(path: string, expectedHash: string | null, actualHash: string | null) {
    const found =
      actualHash === null
        ? expectedHash === null
          ? 'something now exists there'
          : 'it is no longer a regular file'
        : expectedHash === null
          ? 'a file now exists there'
          : 'its content is different';
    super({
      code: 'stale_content',
      path,
      message: `file changed while edit was being prepared: ${path} was not overwritten because ${found}. Read it again and retry.`,
    });
    this.name = 'StaleContentError';
    this.expectedHash = expectedHash;
    this.actualHash = actualHash;
  }

  static override isInstance(error: unknown): error is StaleContentError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
