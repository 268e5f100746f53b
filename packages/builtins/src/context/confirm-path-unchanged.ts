import { ToolExecutionError } from '@openwork/tools-contract';
import type { CheckedPath } from './checked-path.js';
import type { ToolSessionContext } from './tool-session-context.js';

/**
 * After reading through a checked path: does it still resolve to itself? If the file, or a
 * directory above it, was swapped for a symbolic link between the check and the read (peers.md
 * "a file swapped for a symlink between check and use"), what was read may come from a path the
 * fence never allowed — a credential file — so the read is thrown away and the call fails.
 */
export async function confirmPathUnchanged(session: ToolSessionContext, path: CheckedPath, tool: string): Promise<ToolExecutionError | undefined> {
  let real: string | undefined;
  try {
    real = await session.filesystem.realpath(path.path);
  } catch {
    real = undefined;
  }
  if (real === path.path) return undefined;
  return new ToolExecutionError(
    'execution_failed',
    `${path.displayPath} was replaced (by a link or another file) while ${tool} was reading it, so nothing it read is shown. Call ${tool} again.`,
  );
}
