import { escapePath } from './escaped-path.js';

const marker = Symbol.for('openwork.fs-backend.error');

/**
 * What went wrong, independent of the platform's errno names, so that a remote `AsyncFileSystem`
 * can report the same facts and builtins can turn them into tool results (§8.1).
 */
export type FileSystemErrorCode =
  | 'not_found'
  | 'not_a_directory'
  | 'is_a_directory'
  | 'not_a_regular_file'
  | 'already_exists'
  | 'not_empty'
  | 'symlink_loop'
  | 'name_too_long'
  | 'permission_denied'
  | 'read_only_file_system'
  | 'no_space'
  | 'too_many_open_files'
  | 'busy'
  | 'invalid_path'
  | 'invalid_argument'
  | 'too_large'
  | 'stale_content'
  | 'cancelled'
  | 'io_error';

/** Constructor input of {@link FileSystemError}. */
export interface FileSystemErrorInit {
  readonly code: FileSystemErrorCode;
  readonly message: string;
  /** The path the operation was about, when there is one (exact: raw bytes as U+DC80–U+DCFF, `path-bytes.ts`). */
  readonly path?: string;
  /** The platform error code (`ENOENT`, …) this error was mapped from, when there is one. */
  readonly errno?: string;
  readonly cause?: unknown;
}

/**
 * Base class of every error this package throws. A file-system failure is infrastructure from the
 * point of view of this package; builtins turn it into a `ToolResult` value (§8.1). Identity goes
 * through a registered symbol so that it survives two copies of the package in one tree.
 */
export class FileSystemError extends Error {
  private readonly [marker] = true;
  readonly code: FileSystemErrorCode;
  readonly path: string | undefined;
  readonly errno: string | undefined;

  constructor(init: FileSystemErrorInit) {
    // A path in the message is shown in its `\xNN` form (exact file names): the text reaches a model or a person.
    super(escapePath(init.message), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'FileSystemError';
    this.code = init.code;
    this.path = init.path;
    this.errno = init.errno;
  }

  static isInstance(error: unknown): error is FileSystemError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
