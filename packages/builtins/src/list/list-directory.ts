import { escapePath } from '@openwork/fs-backend';
import type { ToolExecutionError } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import { confirmPathUnchanged } from '../context/confirm-path-unchanged.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { PAGE_CONTENT_BYTES } from '../text/text-limits.js';
import { compareNames } from './compare-names.js';

/**
 * §7.8: the entries of one directory as list and read show them: sorted by name, hidden entries
 * included, directories (and links to them, so they can be listed next) ending with `/`, bytes of a
 * name that are not UTF-8 as `\xNN` (the spelling read and list take back). Thrown
 * away when the path was swapped for a link while it was read.
 */
export async function listDirectory(session: ToolSessionContext, directory: CheckedPath, tool: string, signal: AbortSignal): Promise<string[] | ToolExecutionError> {
  const entries = await session.filesystem.readdir(directory.path, { followSymlinks: true, signal });
  const moved = await confirmPathUnchanged(session, directory, tool);
  if (moved !== undefined) return moved;
  return entries
    .sort((left, right) => compareNames(left.name, right.name))
    .map((entry) => (entry.kind === 'directory' ? `${escapePath(entry.name)}/` : escapePath(entry.name)));
}

/** The entries of one page from the 0-based `start`: at most `limit`, and at most 31,488 bytes after the first. */
export function listPage(names: readonly string[], start: number, limit: number): readonly string[] {
  const shown: string[] = [];
  let bytes = 0;
  for (let index = start; index < names.length && shown.length < limit; index += 1) {
    const name = names[index]!;
    const cost = Buffer.byteLength(name, 'utf8') + (shown.length === 0 ? 0 : 1);
    if (shown.length > 0 && bytes + cost > PAGE_CONTENT_BYTES) break;
    shown.push(name);
    bytes += cost;
  }
  return shown;
}
