import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { CoreError } from '../errors/core-error.js';

/** Whether `root` is the file-system root once `..`, `.` and symbolic links are resolved. */
function isFilesystemRoot(root: string): boolean {
  const resolved = resolve(root);
  if (resolved === '/') return true;
  try {
    return realpathSync.native(resolved) === '/';
  } catch {
    return false; // a missing folder is not `/`; createSession reports it as missing
  }
}

/**
 * Why `/` is never a workspace root (docs/decisions/0035-core-runtime-choices.md), in the words the CLI uses too: a workspace root is
 * writable, so `/` would make every file outside the protected paths writable without anyone
 * having said so. HOME is allowed: people work there, and every home protection applies inside it.
 */
export function filesystemRootRefusal(origin: string): string {
  return `${origin} is / (the whole file system), which openwork refuses as a workspace root: every file outside the protected paths would become writable. Use the project's folder instead; the home folder is allowed.`;
}

/**
 * Workspace roots must be a non-empty list of absolute paths, none of them `/` (also spelled
 * `/..`, `//` or through a link to `/`).
 */
export function checkWorkspaceRoots(roots: unknown): readonly string[] {
  if (!Array.isArray(roots) || roots.length === 0) {
    throw new CoreError('invalid_argument', 'A session needs at least one workspace root (an absolute path of a folder); the first is its working directory.');
  }
  for (const root of roots) {
    if (typeof root !== 'string' || !root.startsWith('/') || root.includes('\0')) {
      throw new CoreError('invalid_argument', `Workspace roots must be absolute paths, got ${JSON.stringify(root)}.`);
    }
    if (isFilesystemRoot(root)) throw new CoreError('invalid_argument', filesystemRootRefusal(`The workspace root ${JSON.stringify(root)}`));
  }
  return roots as readonly string[];
}
