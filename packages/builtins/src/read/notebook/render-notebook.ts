import type { ResultImageType, ToolResultImage } from '@openwork/tools-contract';
import { cleanTerminalOutput } from '../../text/clean-terminal-output.js';
import { checkImage } from '../image/check-image.js';
import { formatSize } from '../format-size.js';
import { IMAGE_TYPE_NAMES } from '../image/image-facts.js';
import { sniffImageType } from '../image/sniff-image-type.js';
import { READ_MAX_IMAGE_BYTES, READ_MAX_IMAGE_SIDE } from '../read-limits.js';
import type { NotebookCell, NotebookOutput } from './parse-notebook.js';

/** An image output that passed the checks, at the rendered line that announces it. */
export interface RenderedImage {
  /** 1-based rendered line of its `[image N · …]` line. */
  readonly line: number;
  readonly number: number;
  readonly bytes: number;
  readonly image: ToolResultImage;
}

/** A notebook as read shows it: numbered text lines, and the images they announce. */
export interface RenderedNotebook {
  readonly lines: readonly string[];
  readonly images: readonly RenderedImage[];
}

/** Image output types in the order read prefers them; SVG is text and is not sent as an image. */
const IMAGE_OUTPUT_TYPES: readonly ResultImageType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];


/**
 * Renders cells in order as `[cell N · code|markdown|raw]` blocks: the source, then for code
 * cells each output — `[output · stdout]` text, `[output · result]` / `[output · display]` with
 * the `text/plain` form, `[output · error Name]` with its traceback, and `[image N · image/png
 * 640×480, 12 KB]` for an image output that is whole, valid and within read's image bounds
 * (otherwise a line says why it is not shown). Blank lines separate cells.
 */
export async function renderNotebook(cells: readonly NotebookCell[], signal: AbortSignal): Promise<RenderedNotebook> {
  const lines: string[] = [];
  const images: RenderedImage[] = [];
  const push = (text: string): void => {
    for (const line of text.replace(/\r?\n$/, '').split(/\r?\n/)) lines.push(clean(line));
  };
  for (const [index, cell] of cells.entries()) {
    if (index > 0) lines.push('');
    lines.push(`[cell ${index + 1} · ${cell.kind}]`);
    if (cell.source !== '') push(cell.source);
    for (const output of cell.outputs) {
      for (const line of await renderOutput(output, signal)) {
        if (typeof line === 'string') {
          push(line);
          continue;
        }
        const number = images.length + 1;
        lines.push(`[image ${number} · ${line.image.mimeType} ${line.width}×${line.height}, ${formatSize(line.bytes)}]`);
        images.push({ line: lines.length, number, bytes: line.bytes, image: line.image });
      }
    }
  }
  return { lines, images };
}

type OutputLine = string | { readonly image: ToolResultImage; readonly width: number; readonly height: number; readonly bytes: number };

async function renderOutput(output: NotebookOutput, signal: AbortSignal): Promise<OutputLine[]> {
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
      if (imageType !== undefined) rendered.push(await imageOutput(imageType, output.data[imageType]!, signal));
      const plain = output.data['text/plain'];
      if (plain !== undefined) rendered.push(plain);
      if (imageType === undefined && plain === undefined) {
        rendered.push(`(no text/plain form; its types are ${Object.keys(output.data).join(', ') || 'none'}, which read does not show)`);
      }
      return rendered;
    }
  }
}

/** The image of an output, checked like a file `read` shows, or the line saying why it is not shown. */
async function imageOutput(declared: ResultImageType, base64: string, signal: AbortSignal): Promise<OutputLine> {
  const bytes = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
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
  return { image: { type: 'image', mimeType: type, data: bytes.toString('base64') }, width, height, bytes: bytes.length };
}

/** A line as a terminal would leave it: colours removed (IPython tracebacks), a `\r` progress line at its last state. */
function clean(line: string): string {
  return cleanTerminalOutput(line.replace(/\r+$/, ''));
}
