import { ToolExecutionError } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import { confirmPathUnchanged } from '../context/confirm-path-unchanged.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { PAGE_CONTENT_BYTES } from '../text/text-limits.js';
import { pageFooter } from './page-footer.js';
import { formatSize } from './format-size.js';
import { READ_COUNT_DEADLINE_MS, READ_KEPT_LINE_BYTES, READ_SCAN_BYTES } from './read-limits.js';
import { ReadPage } from './read-page.js';

/**
 * §7.1 `read` of a text file: one page, `{line number}\t{content}`, ending at the first of `limit`
 * lines, 31,488 bytes of content (after the last whole line) or the end of the file, with a footer
 * that says how to continue. Streams the file once: counts the lines, hashes the content, and
 * records the hash in the observation table (§7.4). Bounded in bytes and time (docs/decisions/0096-reads-bounded-in-bytes-and-time.md):
 * at most the first 64 MiB are read (a sparse file of a terabyte is a terabyte of zeros), and
 * lines after the page are counted for at most 2 s; a file read in part is said so, and records
 * no hash (edit and write refuse files over 1 MiB anyway).
 */
export async function readTextFile(session: ToolSessionContext, target: CheckedPath, offset: number, limit: number, signal: AbortSignal): Promise<string | ToolExecutionError> {
  const page = new ReadPage(limit, PAGE_CONTENT_BYTES);
  const summary = await session.filesystem.readLines(target.path, {
    firstLine: offset,
    maxLineBytes: READ_KEPT_LINE_BYTES,
    onLine: (line) => page.accept(line),
    maxBytes: READ_SCAN_BYTES,
    deadline: Date.now() + READ_COUNT_DEADLINE_MS,
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
  if (!summary.complete) return partialPage(session, target, offset, page, summary.lineCount, summary.byteLength);
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

/**
 * The page of a file read in part (over 64 MiB, or counting cut by the deadline): the page when it
 * lay in what was read, with a footer that says how far lines were counted; else what to do instead.
 */
async function partialPage(session: ToolSessionContext, target: CheckedPath, offset: number, page: ReadPage, countedLines: number, bytesRead: number): Promise<string | ToolExecutionError> {
  const display = target.displayPath;
  const size = (await session.filesystem.stat(target.path)).size;
  const where = `${display} is ${formatSize(size)}; read looked at its first ${formatSize(bytesRead)}`;
  if (page.lineCount === 0) {
    return new ToolExecutionError(
      'invalid_arguments',
      `offset ${offset} is not within the part read looks at: ${where}, which hold ${countedLines} whole ${countedLines === 1 ? 'line' : 'lines'}. Read a lower offset, search with grep, or show later lines with bash (for example sed -n '${offset},${offset + 99}p' or tail).`,
    );
  }
  const counted = `at least ${countedLines} (${where} and counted lines only there)`;
  const footer = pageFooter(page, counted) ?? `[showing lines ${page.firstLine}-${page.lastLine} of ${counted}. Continue with offset=${(page.lastLine ?? 0) + 1}]`;
  return `${page.text}\n\n${footer}`;
}
