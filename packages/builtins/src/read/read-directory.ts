import { ToolExecutionError } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { listDirectory, listPage } from '../list/list-directory.js';

/**
 * `read` of a directory (docs/decisions/0015-read-renders-notebooks-and-directories.md): the listing of §7.8 — sorted, hidden entries included,
 * directories ending with `/`, at most 31,488 bytes a page — so the model never retries with
 * list. read's own paging applies: `offset` is the 1-based number of the first entry (0 counts as
 * 1) and `limit` the number of entries, and the footer says which offset continues.
 */
export async function readDirectory(session: ToolSessionContext, directory: CheckedPath, offset: number, limit: number, signal: AbortSignal): Promise<string | ToolExecutionError> {
  const names = await listDirectory(session, directory, 'read', signal);
  if (!Array.isArray(names)) return names;
  if (names.length === 0) return '[empty directory]';
  if (offset > names.length) {
    return new ToolExecutionError(
      'invalid_arguments',
      `offset ${offset} is past the last entry of ${directory.displayPath}, which has ${names.length} ${names.length === 1 ? 'entry' : 'entries'}. Read with an offset from 1 to ${names.length}.`,
    );
  }
  const shown = listPage(names, offset - 1, limit);
  const last = offset - 1 + shown.length;
  if (last >= names.length) return shown.join('\n');
  return `${shown.join('\n')}\n\n[showing entries ${offset}-${last} of ${names.length} in ${directory.displayPath}. Continue with offset=${last + 1}]`;
}
