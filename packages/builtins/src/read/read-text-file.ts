import { ToolExecutionError } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import { confirmPathUnchanged } from '../context/confirm-path-unchanged.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { PAGE_CONTENT_BYTES } from '../text/text-limits.js';
import { pageFooter } from './page-footer.js';
import { READ_KEPT_LINE_BYTES } from './read-limits.js';
import { ReadPage } from './read-page.js';

/**
 * §7.1 `read` of a text file: one page, `{line number}\t{content}`, ending at the first of `limit`
 * lines, 31,488 bytes of content (after the last whole line) or the end of the file, with a footer
 * that says how to continue. Streams the whole file once: counts the lines, hashes the content,
 * and records the hash in the observation table (§7.4).
 */
export async function readTextFile(session: ToolSessionContext, target: CheckedPath, offset: number, limit: number, signal: AbortSignal): Promise<string | ToolExecutionError> {
  const page = new ReadPage(limit, PAGE_CONTENT_BYTES);
  const summary = await session.filesystem.readLines(target.path, {
    firstLine: offset,
    maxLineBytes: READ_KEPT_LINE_BYTES,
    onLine: (line) => page.accept(line),
    signal: signal,
  });
  const moved = await confirmPathUnchanged(session, target, 'read');
  if (moved !== undefined) return moved;
  const display = target.displayPath;
  const unreadable = page.unreadable;
  if (unreadable !== undefined) {
    const readable = unreadable.number - offset;
    const before =
      readable === 0 ? '' : ` ${readable === 1 ? `Line ${offset}` : `Lines ${offset}-${unreadable.number - 1}`} can be read with offset=${offset} limit=${readable}.`;
    const after = unreadable.number < summary.lineCount ? ` The next lines start at offset=${unreadable.number + 1}.` : '';
    const why =
      unreadable.reason === 'nul'
        ? `contains a NUL byte, so ${display} looks like a binary file, which read does not show. Inspect it with bash (for example file or xxd).`
        : `is not valid UTF-8; read shows UTF-8 text only. Inspect it with bash (for example iconv or xxd).`;
    return new ToolExecutionError('execution_failed', `Line ${unreadable.number} of ${display} ${why}${before}${after}`);
  }
  if (summary.lineCount === 0) {
    session.observations.record(target, summary.sha256);
    return '[empty file]';
  }
  if (offset > summary.lineCount) {
    return new ToolExecutionError(
      'invalid_arguments',
      `offset ${offset} is past the end of ${display}, which has ${summary.lineCount} ${summary.lineCount === 1 ? 'line' : 'lines'}. Read with an offset from 1 to ${summary.lineCount}.`,
    );
  }
  session.observations.record(target, summary.sha256);
  const footer = pageFooter(page, summary.lineCount);
  return footer === undefined ? page.text : `${page.text}\n\n${footer}`;
}
