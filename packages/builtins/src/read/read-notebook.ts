import { createHash } from 'node:crypto';
import { FileTooLargeError } from '@openwork/fs-backend';
import { MAX_RESULT_IMAGES, ToolExecutionError, type ToolOutputValue } from '@openwork/tools-contract';
import type { CheckedPath } from '../context/checked-path.js';
import { confirmPathUnchanged } from '../context/confirm-path-unchanged.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { PAGE_CONTENT_BYTES } from '../text/text-limits.js';
import { formatSize } from './format-size.js';
import { parseNotebook } from './notebook/parse-notebook.js';
import { checkImageOutput, renderNotebook, type PendingImage, type RenderedImage } from './notebook/render-notebook.js';
import { pageFooter } from './page-footer.js';
import { READ_IMAGE_CHECK_DEADLINE_MS, READ_MAX_IMAGE_BYTES, READ_MAX_NOTEBOOK_BYTES } from './read-limits.js';
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
 * 4. page it like a text file (2,000 lines, 31,488 bytes); the images announced on the page's lines,
 *    and only those, are checked and attached, within the image bound (5 MiB, 20 images) and 5 s of
 *    checking — the rest are named in the text, unchecked (docs/decisions/0096-reads-bounded-in-bytes-and-time.md);
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
  const rendered = renderNotebook(parsed.cells);
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
  const images = new PageImages(rendered.images, request.signal);
  for (let number = request.offset; number <= rendered.lines.length; number += 1) {
    const text = images.isImageLine(number) ? await images.lineFor(number) : rendered.lines[number - 1]!;
    const line = { number, text, hasNul: false, isValidUtf8: true, terminator: 'lf' as const, truncated: false };
    if (!page.accept(line)) {
      images.leftOffPage(number);
      break;
    }
  }
  record();
  const footer = pageFooter(page, rendered.lines.length);
  const text = [page.text, ...(footer === undefined ? [] : ['', footer]), ...images.notes(), EDIT_HINT].join('\n');
  return images.attached.length === 0 ? text : { text, images: images.attached.map((image) => image.image) };
}

/**
 * The images of one page, checked as their lines are reached: in order while they fit in 5 MiB and
 * 20 parts and while 5 s of checking remain; the others are named, unchecked, with where to read
 * them. Nothing off the page is decoded or checked.
 */
class PageImages {
  readonly attached: RenderedImage[] = [];
  readonly #byLine = new Map<number, PendingImage>();
  readonly #overBound: PendingImage[] = [];
  readonly #overTime: PendingImage[] = [];
  readonly #signal: AbortSignal;
  #bytes = 0;
  #deadline: number | undefined;

  constructor(images: readonly PendingImage[], signal: AbortSignal) {
    for (const image of images) this.#byLine.set(image.line, image);
    this.#signal = signal;
  }

  isImageLine(line: number): boolean {
    return this.#byLine.has(line);
  }

  /** The text of the image line `line`: checked and attached when it fits, else named. */
  async lineFor(line: number): Promise<string> {
    const pending = this.#byLine.get(line)!;
    const unchecked = `[image ${pending.number} · ${pending.declared}, not checked on this page]`;
    if (this.attached.length >= MAX_RESULT_IMAGES || this.#bytes >= READ_MAX_IMAGE_BYTES) {
      this.#overBound.push(pending);
      return unchecked;
    }
    this.#deadline ??= Date.now() + READ_IMAGE_CHECK_DEADLINE_MS;
    const remaining = this.#deadline - Date.now();
    if (remaining <= 0) {
      this.#overTime.push(pending);
      return unchecked;
    }
    const timeout = AbortSignal.timeout(remaining);
    let checked: Awaited<ReturnType<typeof checkImageOutput>>;
    try {
      checked = await checkImageOutput(pending, AbortSignal.any([this.#signal, timeout]));
    } catch (error) {
      if (this.#signal.aborted || !timeout.aborted) throw error;
      this.#overTime.push(pending);
      return unchecked;
    }
    if (typeof checked === 'string') return checked;
    if (this.#bytes + checked.bytes > READ_MAX_IMAGE_BYTES) {
      this.#overBound.push(pending);
      return unchecked;
    }
    this.attached.push(checked);
    this.#bytes += checked.bytes;
    return checked.text;
  }

  /** The page ended before `line`: an image checked for it is not on the page. */
  leftOffPage(line: number): void {
    const last = this.attached.at(-1);
    if (last !== undefined && last.line === line) {
      this.attached.pop();
      this.#bytes -= last.bytes;
    }
    for (const list of [this.#overBound, this.#overTime]) {
      if (list.at(-1)?.line === line) list.pop();
    }
  }

  /** The lines after the page that name what was not attached and say where to read it. */
  notes(): string[] {
    const notes: string[] = [];
    const numbers = (images: readonly PendingImage[]) => images.map((image) => image.number).join(', ');
    if (this.#overBound.length > 0) {
      notes.push(
        `[images ${numbers(this.#overBound)} not attached: one result carries at most ${MAX_RESULT_IMAGES} images and ${formatSize(READ_MAX_IMAGE_BYTES)} of image data. Read from offset=${this.#overBound[0]!.line} to see them.]`,
      );
    }
    if (this.#overTime.length > 0) {
      notes.push(
        `[images ${numbers(this.#overTime)} not attached: checking this page's images took longer than ${READ_IMAGE_CHECK_DEADLINE_MS / 1000} s. Read from offset=${this.#overTime[0]!.line} to see them.]`,
      );
    }
    return notes;
  }
}

function failed(message: string): ToolExecutionError {
  return new ToolExecutionError('execution_failed', message);
}
