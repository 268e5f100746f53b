import { crc32, createInflate } from 'node:zlib';
import { invalid, valid, type ImageCheck } from './image-facts.js';
import { ascii } from './sniff-image-type.js';

/** Channels per pixel of each PNG colour type, and the bit depths it allows (PNG spec §11.2.2). */
const COLOUR_TYPES: Readonly<Record<number, { channels: number; depths: readonly number[] }>> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};

/** Adam7's passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** A PNG whose chunks are whole and whose CRCs match, with its IHDR facts and its IDAT data. */
export interface PngLayout {
  readonly width: number;
  readonly height: number;
  /** Bytes the image data must inflate to (filter bytes included). */
  readonly inflatedBytes: number;
  readonly idat: readonly Uint8Array[];
}

/**
 * Walks every chunk of a PNG: each must fit in the file and match its CRC, IHDR must come first
 * with a valid colour type and bit depth, at least one IDAT must follow, and IEND must end it
 * (bytes after IEND are ignored, as decoders do). A truncated file misses its IEND or cuts a chunk.
 */
export function readPngLayout(bytes: Uint8Array): { ok: true; layout: PngLayout } | { ok: false; problem: string } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const idat: Uint8Array[] = [];
  let header: { width: number; height: number; inflatedBytes: number } | undefined;
  let offset = 8;
  for (;;) {
    if (offset + 12 > bytes.length) return { ok: false, problem: 'it ends before its IEND chunk (the file is truncated)' };
    const length = view.getUint32(offset);
    const type = ascii(bytes, offset + 4, 4);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return { ok: false, problem: `its ${printable(type)} chunk runs past the end of the file (the file is truncated)` };
    const stored = view.getUint32(end - 4);
    if (crc32(bytes.subarray(offset + 4, end - 4)) !== stored) return { ok: false, problem: `the CRC of its ${printable(type)} chunk does not match (the file is damaged)` };
    const data = bytes.subarray(offset + 8, end - 4);
    if (header === undefined) {
      if (type !== 'IHDR' || length !== 13) return { ok: false, problem: 'its first chunk is not a 13-byte IHDR' };
      const parsed = parseHeader(data);
      if (typeof parsed === 'string') return { ok: false, problem: parsed };
      header = parsed;
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      if (idat.length === 0) return { ok: false, problem: 'it has no IDAT chunk (no image data)' };
      return { ok: true, layout: { ...header, idat } };
    }
    offset = end;
  }
}

function parseHeader(data: Uint8Array): { width: number; height: number; inflatedBytes: number } | string {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const [depth, colourType, compression, filter, interlace] = [data[8]!, data[9]!, data[10]!, data[11]!, data[12]!];
  const colour = COLOUR_TYPES[colourType];
  if (colour === undefined || !colour.depths.includes(depth)) return `its IHDR gives colour type ${colourType} with bit depth ${depth}, which PNG does not define`;
  if (compression !== 0 || filter !== 0 || interlace > 1) return 'its IHDR names an unknown compression, filter or interlace method';
  if (width === 0 || height === 0) return `its header gives a size of ${width}×${height} px`;
  const bits = colour.channels * depth;
  const passes = interlace === 0 ? [[0, 0, 1, 1] as const] : ADAM7;
  let inflatedBytes = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const passWidth = width > x0 ? Math.ceil((width - x0) / dx) : 0;
    const passHeight = height > y0 ? Math.ceil((height - y0) / dy) : 0;
    if (passWidth > 0 && passHeight > 0) inflatedBytes += passHeight * (1 + Math.ceil((passWidth * bits) / 8));
  }
  return { width, height, inflatedBytes };
}

/**
 * Inflates the image data as a stream, keeping nothing, and checks it gives exactly the bytes the
 * header promises: a PNG whose chunks are whole but whose pixels are cut or garbage fails here,
 * before a provider rejects it mid-conversation.
 */
export async function checkPngData(layout: PngLayout, signal: AbortSignal): Promise<ImageCheck> {
  const inflate = createInflate();
  let produced = 0;
  const outcome = new Promise<string | undefined>((resolve) => {
    inflate.on('data', (chunk: Buffer) => {
      produced += chunk.length;
      if (produced > layout.inflatedBytes) inflate.destroy(new Error('more image data than the header promises'));
    });
    inflate.on('error', (error: Error) => resolve(error.message));
    inflate.on('end', () => resolve(undefined));
  });
  const abort = (): void => void inflate.destroy(new Error('cancelled'));
  signal.addEventListener('abort', abort, { once: true });
  try {
    for (const data of layout.idat) inflate.write(data);
    inflate.end();
    const error = await outcome;
    signal.throwIfAborted();
    if (error !== undefined) return invalid(`its image data does not inflate (${error}; the file is damaged or truncated)`);
    if (produced !== layout.inflatedBytes) {
      return invalid(`its image data holds ${produced} bytes where its ${layout.width}×${layout.height} header needs ${layout.inflatedBytes} (the file is damaged)`);
    }
    return valid('image/png', layout.width, layout.height);
  } finally {
    signal.removeEventListener('abort', abort);
  }
}

function printable(type: string): string {
  return /^[A-Za-z]{4}$/.test(type) ? type : 'next';
}
