import { FileSystemError, type FileSystemErrorCode } from './file-system-error.js';

const codeByErrno: Readonly<Record<string, FileSystemErrorCode>> = {
  ENOENT: 'not_found',
  ENOTDIR: 'not_a_directory',
  EISDIR: 'is_a_directory',
  EEXIST: 'already_exists',
  ENOTEMPTY: 'not_empty',
  ELOOP: 'symlink_loop',
  ENAMETOOLONG: 'name_too_long',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  EROFS: 'read_only_file_system',
  ENOSPC: 'no_space',
  EDQUOT: 'no_space',
  EMFILE: 'too_many_open_files',
  ENFILE: 'too_many_open_files',
  EBUSY: 'busy',
  ETXTBSY: 'busy',
  ERR_INVALID_ARG_VALUE: 'invalid_path',
  ERR_INVALID_ARG_TYPE: 'invalid_path',
  ABORT_ERR: 'cancelled',
};

const explanationByCode: Readonly<Record<FileSystemErrorCode, string>> = {
  not_found: 'it does not exist',
  not_a_directory: 'a component of the path is not a directory',
  is_a_directory: 'it is a directory',
  not_a_regular_file: 'it is not a regular file',
  already_exists: 'it already exists',
  not_empty: 'the directory is not empty',
  symlink_loop: 'the path goes through a symbolic link where none is allowed, or through too many of them',
  name_too_long: 'the name is too long',
  permission_denied: 'the operating system denied permission',
  read_only_file_system: 'the file system is read-only',
  no_space: 'there is no space left on the device (or the quota is exhausted)',
  too_many_open_files: 'too many files are open; retry later',
  busy: 'the file is busy',
  invalid_path: 'the path is not valid',
  invalid_argument: 'an argument is not valid',
  too_large: 'it is too large',
  stale_content: 'it changed meanwhile',
  cancelled: 'the operation was cancelled',
  io_error: 'an input/output error occurred',
};

/**
 * Maps whatever `node:fs` threw to a {@link FileSystemError} whose message names the operation and
 * the path, e.g. `Cannot read /w/a.txt: it does not exist.` Errors that already are ours pass through.
 */
export function toFileSystemError(error: unknown, operation: string, path: string): FileSystemError {
  if (FileSystemError.isInstance(error)) return error;
  const errno =
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
      ? (error as { code: string }).code
      : undefined;
  const code: FileSystemErrorCode = (errno === undefined ? undefined : codeByErrno[errno]) ?? 'io_error';
  const detail = code === 'io_error' && errno !== undefined ? `${explanationByCode.io_error} (${errno})` : explanationByCode[code];
  return new FileSystemError({
    code,
    path,
    message: `Cannot ${operation} ${path}: ${detail}.`,
    ...(errno === undefined ? {} : { errno }),
    cause: error,
  });
}
