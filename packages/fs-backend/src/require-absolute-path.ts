import { isAbsolute } from 'node:path';
import { FileSystemError } from './file-system-error.js';

/**
 * Refuses relative paths and NUL bytes: a relative path would silently resolve against the
 * process cwd instead of the session's working directory (peers.md "Paths"), which is
 * `resolvePath`'s job (§6.2), not this backend's.
 */
export function requireAbsolutePath(path: string, operation: string): void {
  if (typeof path !== 'string' || path.includes('\0') || !isAbsolute(path)) {
    throw new FileSystemError({
      code: 'invalid_path',
      path: String(path),
      message: `Cannot ${operation} ${JSON.stringify(String(path))}: the file-system backend takes absolute paths without NUL bytes; resolve the path against the working directory first.`,
    });
  }
}
