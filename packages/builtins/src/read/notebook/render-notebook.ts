import type { ResultImageType, ToolResultImage } from '@openwork/tools-contract';
import { cleanTerminalOutput } from '../../text/clean-terminal-output.js';
import { checkImage } from '../image/check-image.js';
import { formatSize } from '../format-size.js';
import { IMAGE_TYPE_NAMES } from '../image/image-facts.js';
import { sniffImageType } from '../image/sniff-image-type.js';
import { READ_MAX_IMAGE_BYTES, READ_MAX_IMAGE_SIDE } from '../read-limits.js';
import type { NotebookCell, NotebookOutput } from './parse-notebook.js';

/**
 * An image output, at the rendered line that announces it. Not checked when rendered: `readNotebook`
 * checks only the images on the page it shows (`checkImageOutput`), so a page costs the same
 * whatever the rest of the notebook holds (docs/decisions/0096-reads-bounded-in-bytes-and-time.md).
 */
export interface PendingImage {
  /** 1-based rendered line of its `[image N · …]` line. */
  readonly line: number;
  /** Its number among the notebook's image outputs. */
  readonly number: number;
  /** The output type it was declared with. */
  readonly declared: ResultImageType;
  /** The output's base64 data, as in the JSON. */
  readonly base64: string;
}

/** A checked image output: attached, with the line that announces it. */
export interface RenderedImage {
  readonly line: number;
  readonly number: number;
  readonly bytes: number;
  readonly image: ToolResultImage;
}

/** A notebook as read shows it: numbered text lines, and the images they announce (the image lines are placeholders until checked). */
export interface RenderedNotebook {
  readonly lines: readonly string[];
  readonly images: readonly PendingImage[];
}

/** Image output types in the order read prefers them; SVG is text and is not sent as an image. */
const IMAGE_OUTPUT_TYPES: readonly ResultImageType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];


/**
 * Renders cells in order as `[cell N · code|markdown|raw]` blocks: the source, then for code
 * cells each output — `[output · stdout]` text, `[output · result]` / `[output · display]` with
 * the `text/plain` form, `[output · error Name]` with its traceback, and one line per image output,
 * whose text `checkImageOutput` gives when the line is on the page shown: `[image N · image/png
 * 640×480, 12 KB]` for an image that is whole, valid and within read's image bounds, otherwise a
 * line that says why it is not shown. Blank lines separate cells.
 */
export function renderNotebook(cells: readonly NotebookCell[]): RenderedNotebook {
  const lines: string[] = [];
  const images: PendingImage[] = [];
  const push = (text: string): void => {
    for (const line of text.replace(/\r?\n$/, '').split(/\r?\n/)) lines.push(clean(line));
  };
  for (const [index, cell] of cells.entries()) {
    if (index > 0) lines.push('');
    lines.push(`[cell ${index + 1} · ${cell.kind}]`);
    if (cell.source !== '') push(cell.source);
    for (const output of cell.outputs) {
      for (const line of renderOutput(output)) {
        if (typeof line === 'string') {
          push(line);
          continue;
        }
        const number = images.length + 1;
        lines.push(`[image ${number} · ${line.declared}]`);
        images.push({ line: lines.length, number, declared: line.declared, base64: line.base64 });
      }
    }
  }
  return { lines, images };
}

type OutputLine = string | { readonly declared: ResultImageType; readonly base64: string };

function renderOutput(output: NotebookOutput): OutputLine[] {
  switch (output.kind) {
    case 'stream':
      return [`[output · ${output.name}]`, output.text];
    case 'error': {
      const traceback = output.traceback.length > 0 ? output.traceback.join('\n') : `${output.ename}: ${output.evalue}`;
      return [`[output · error ${output.ename}]`, traceback];
    }
    default: {
      const rendered: OutputLine[] = [`[output · ${output.kind === 'execute_result' ? 'result' : 'display'}]`];
      const imageType = IMAGE_OUTPUT_TYPES.find((type) => output.data[type] !== undefined);
      if (imageType !== undefined) rendered.push({ declared: imageType, base64: output.data[imageType]! });
      const plain = output.data['text/plain'];
      if (plain !== undefined) rendered.push(plain);
      if (imageType === undefined && plain === undefined) {
        rendered.push(`(no text/plain form; its types are ${Object.keys(output.data).join(', ') || 'none'}, which read does not show)`);
      }
      return rendered;
    }
  }
}

/**
 * The line of an image output on the page shown, checked like a file `read` shows: the
 * announcement and the image, or the line saying why it is not shown.
 */
export async function checkImageOutput(pending: PendingImage, signal: AbortSignal): Promise<string | RenderedImage & { readonly text: string }> {
  const { declared, number, line } = pending;
  const bytes = Buffer.from(pending.base64.replace(/\s+/g, ''), 'base64');
  const name = IMAGE_TYPE_NAMES[declared];
  if (bytes.length > READ_MAX_IMAGE_BYTES) {
    return `(${name} image output of ${formatSize(bytes.length)} not shown: read shows images up to ${formatSize(READ_MAX_IMAGE_BYTES)})`;
  }
  const type = sniffImageType(bytes);
  if (type === undefined) return `(${declared} output not shown: its data is not a PNG, JPEG, GIF or WebP image)`;
  const check = await checkImage(bytes, type, READ_MAX_IMAGE_SIDE, signal);
  if (!check.ok) return `(${name} image output not shown: ${check.problem})`;
  const { width, height } = check.facts;
  if (width > READ_MAX_IMAGE_SIDE || height > READ_MAX_IMAGE_SIDE) {
    return `(${name} image output of ${width}×${height} px not shown: read shows images up to ${READ_MAX_IMAGE_SIDE} px on a side)`;
  }
  return {
    text: `[image ${number} · ${type} ${width}×${height}, ${formatSize(bytes.length)}]`,
    line,
    number,
    bytes: bytes.length,
    image: { type: 'image', mimeType: type, data: bytes.toString('base64') },
  };
}

/** A line as a terminal would leave it: colours removed (IPython tracebacks), a `\r` progress line at its last state. */
function clean(line: string): string {
  return cleanTerminalOutput(line.replace(/\r+$/, ''));
}
