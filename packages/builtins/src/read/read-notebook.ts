import { createHash } from 'node:crypto';
import { FileTooLargeError } from '@openwork/fs-backend';
import { MAX_RESULT_IMAGES, ToolExecutionError, type ToolOutputValue, type ToolResultImage } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import { confirmPathUnchanged } from '../context/confirm-path-unchanged.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { PAGE_CONTENT_BYTES } from '../text/text-limits.js';
import { formatSize } from './format-size.js';
import { parseNotebook } from './notebook/parse-notebook.js';
import { renderNotebook, type RenderedImage } from './notebook/render-notebook.js';
import { pageFooter } from './page-footer.js';
import { READ_MAX_IMAGE_BYTES, READ_MAX_NOTEBOOK_BYTES } from './read-limits.js';
import { ReadPage } from './read-page.js';

/** One page of the rendered notebook (1-based `offset`, `limit` lines). */
export interface NotebookPageRequest {
  readonly offset: number;
  readonly limit: number;
  readonly signal: AbortSignal;
}

const EDIT_HINT = '[notebook shown rendered; edit and write change its JSON text: grep -n the .ipynb to see the raw lines]';

/**
 * `read` of a `.ipynb` notebook (docs/decisions/0015-read-renders-notebooks-and-directories.md). The steps:
 * 1. read at most 32 MiB, confirm the path did not move, decode strict UTF-8 and parse JSON;
 * 2. check nbformat 4 (`parseNotebook`) — any failure above is a clear error and records nothing;
 * 3. render the cells as text (`renderNotebook`); line numbers and offset/limit refer to that text;
 * 4. page it like a text file (2,000 lines, 31,488 bytes) and attach the images announced on the
 *    page's lines, within the image bound (5 MiB, 20 images) — the rest are named in the text;
 * 5. record the hash of the file's bytes (§7.4): edit works on the JSON, and needs this read.
 */
export async function readNotebook(session: ToolSessionContext, target: CheckedPath, request: NotebookPageRequest): Promise<string | ToolOutputValue | ToolExecutionError> {
  const display = target.displayPath;
  let bytes: Uint8Array;
  try {
    bytes = await session.filesystem.readFile(target.path, { maxBytes: READ_MAX_NOTEBOOK_BYTES, signal: request.signal });
  } catch (error) {
    if (!FileTooLargeError.isInstance(error)) throw error;
    return failed(`${display} is a notebook of ${formatSize(error.size)}; read renders notebooks up to ${formatSize(READ_MAX_NOTEBOOK_BYTES)}. Search it with grep instead.`);
  }
  const moved = await confirmPathUnchanged(session, target, 'read');
  if (moved !== undefined) return moved;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    const why = error instanceof SyntaxError ? error.message : 'it is not valid UTF-8';
    return failed(`${display} is not valid JSON (${why}), so read cannot show it as a notebook. Look at the raw text with grep, or with bash (for example head -c 2000).`);
  }
  const parsed = parseNotebook(json);
  if (!parsed.ok) return failed(`${display} is not a Jupyter notebook read can show: ${parsed.problem}. read shows nbformat 4 notebooks; look at the raw JSON with grep or bash.`);
  const rendered = await renderNotebook(parsed.cells, request.signal);
  const record = (): void => session.observations.record(target, createHash('sha256').update(bytes).digest('hex'));
  if (rendered.lines.length === 0) {
    record();
    return '[empty notebook: no cells]';
  }
  if (request.offset > rendered.lines.length) {
    return new ToolExecutionError(
      'invalid_arguments',
      `offset ${request.offset} is past the end of ${display}, which renders to ${rendered.lines.length} lines. Read with an offset from 1 to ${rendered.lines.length}.`,
    );
  }
  const page = new ReadPage(request.limit, PAGE_CONTENT_BYTES);
  for (let number = request.offset; number <= rendered.lines.length; number += 1) {
    const line = { number, text: rendered.lines[number - 1]!, hasNul: false, isValidUtf8: true, terminator: 'lf' as const, truncated: false };
    if (!page.accept(line)) break;
  }
  record();
  const onPage = rendered.images.filter((image) => image.line >= (page.firstLine ?? 0) && image.line <= (page.lastLine ?? -1));
  const { attached, leftOut } = boundImages(onPage);
  const footer = pageFooter(page, rendered.lines.length);
  const text = [page.text, ...(footer === undefined ? [] : ['', footer]), ...(leftOut === undefined ? [] : [leftOut]), EDIT_HINT].join('\n');
  return attached.length === 0 ? text : { text, images: attached };
}

/** The page's images in order while they fit in 5 MiB and 20 parts; a line names the others. */
function boundImages(images: readonly RenderedImage[]): { attached: ToolResultImage[]; leftOut: string | undefined } {
  const attached: ToolResultImage[] = [];
  const skipped: RenderedImage[] = [];
  let bytes = 0;
  for (const image of images) {
    if (attached.length < MAX_RESULT_IMAGES && bytes + image.bytes <= READ_MAX_IMAGE_BYTES) {
      attached.push(image.image);
      bytes += image.bytes;
    } else {
      skipped.push(image);
    }
  }
  if (skipped.length === 0) return { attached, leftOut: undefined };
  const first = skipped[0]!;
  return {
    attached,
    leftOut: `[images ${skipped.map((image) => image.number).join(', ')} not attached: one result carries at most ${MAX_RESULT_IMAGES} images and ${formatSize(READ_MAX_IMAGE_BYTES)} of image data. Read from offset=${first.line} to see them.]`,
  };
}

function failed(message: string): ToolExecutionError {
  return new ToolExecutionError('execution_failed', message);
}
