import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, ToolExecutionError } from '@openwork/tools-contract';
import * as z from 'zod';
import { confirmPathUnchanged } from '../context/confirm-path-unchanged.js';
import { fileSystemFailure } from '../context/file-system-failure.js';
import { requireCallPolicy } from '../context/require-call-policy.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { PAGE_CONTENT_BYTES } from '../text/text-limits.js';
import { READ_KEPT_LINE_BYTES, READ_MAX_LINES } from './read-limits.js';
import { ReadPage } from './read-page.js';

const inputSchema = z.strictObject({
  path: z.string().describe('Absolute path of the file, or relative to the working directory; ~ is your home directory'),
  offset: z
    .number()
    .int()
    .min(0)
    .default(1)
    .describe('1-based number of the first line to show (0 counts as 1); use the offset a previous read told you to continue with'),
  limit: z.number().int().min(1).max(READ_MAX_LINES).default(READ_MAX_LINES).describe('How many lines to show, 1–2000'),
});

/**
 * §7.1 `read`: one page of a text file, `{line number}\t{content}`, ending at the first of 2,000
 * lines (or `limit`), 31,488 bytes of content (after the last whole line) or the end of the file,
 * with a footer that says how to continue. Every read streams the whole file once: it counts the
 * lines and hashes the content, and records the hash in the observation table (§7.4). Never
 * spills: the page is the result.
 */
export const readTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'read',
  description:
    'Read a text file. Returns numbered lines ("{line}\\t{text}"), at most 2000 lines or about 32 KB per call; lines longer than 2000 characters are cut. When the file is longer, the last line of the result says which offset to continue with. Reading a file is required before write or edit may change it. Use list for directories.',
  risk: 'read_only',
  inputSchema,
  async execute(input, session, call) {
    const policy = requireCallPolicy(call.sandboxPolicy, 'read');
    if (ToolExecutionError.isInstance(policy)) return policy;
    const resolved = await session.resolvePath(input.path, 'read', 'must-exist', policy, 'read');
    if (!resolved.ok) return resolved.error;
    const target = resolved.path;
    const offset = Math.max(1, input.offset);

    try {
      const kind = (await session.filesystem.stat(target.path)).kind;
      if (kind === 'directory') {
        return new ToolExecutionError('invalid_arguments', `${target.displayPath} is a directory, not a file. Use list with path "${target.displayPath}" to see its entries.`);
      }
      if (kind !== 'file') {
        return new ToolExecutionError('execution_failed', `${target.displayPath} is not a regular file (a device, FIFO or socket); read shows regular text files only.`);
      }
      const page = new ReadPage(input.limit, PAGE_CONTENT_BYTES);
      const summary = await session.filesystem.readLines(target.path, {
        firstLine: offset,
        maxLineBytes: READ_KEPT_LINE_BYTES,
        onLine: (line) => page.accept(line),
        signal: call.signal,
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
    } catch (error) {
      return fileSystemFailure(error);
    }
  },
});

/** §7.1: the continuation line when the page stopped before the end; none at the end of the file. */
function pageFooter(page: ReadPage, totalLines: number): string | undefined {
  if (page.stop === undefined || page.firstLine === undefined || page.lastLine === undefined) return undefined;
  const next = page.lastLine + 1;
  if (page.stop === 'bytes') {
    return `[showing lines ${page.firstLine}-${page.lastLine} of ${totalLines}; stopped at 32 KB. Continue with offset=${next}]`;
  }
  return `[showing lines ${page.firstLine}-${page.lastLine} of ${totalLines}. Continue with offset=${next}]`;
}
