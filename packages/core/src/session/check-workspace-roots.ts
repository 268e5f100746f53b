import { CoreError } from '../errors/core-error.js';

/** Workspace roots must be a non-empty list of absolute paths. */
export function checkWorkspaceRoots(roots: unknown): readonly string[] {
  if (!Array.isArray(roots) || roots.length === 0) {
    throw new CoreError('invalid_argument', 'A session needs at least one workspace root (an absolute path of a folder); the first is its working directory.');
  }
  for (const root of roots) {
    if (typeof root !== 'string' || !root.startsWith('/') || root.includes('\0')) {
      throw new CoreError('invalid_argument', `Workspace roots must be absolute paths, got ${JSON.stringify(root)}.`);
    }
  }
  return roots as readonly string[];
}
