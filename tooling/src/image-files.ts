import { crc32, deflateSync } from 'node:zlib';

/**
 * Minimal valid images built byte by byte, so tests need no binary fixtures: a PNG with a real
 * IHDR/IDAT/IEND and CRCs, a baseline JPEG with its own Huffman tables, a GIF with LZW data and a
 * lossless WebP (VP8L) bitstream. Each is a solid colour of the given size. One copy for the
 * test support of every package (builtins, core, ai-sdk, the CLI).
 */
export function pngFile(width: number, height: number, options: { readonly interlace?: boolean } = {}): Buffer {
  const row = Buffer.alloc(1 + width * 4);
  for (let x = 0; x < width; x += 1) row.set([0x20, 0x80, 0xe0, 0xff], 1 + x * 4);
  const rows = options.interlace ? adam7Rows(width, height) : Array.from({ length: height }, () => width);
  const raw = Buffer.concat(rows.map((pixels) => row.subarray(0, 1 + pixels * 4)));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, options.interlace ? 1 : 0], 8);
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Pixels per scanline of each Adam7 pass, in order. */
function adam7Rows(width: number, height: number): number[] {
  const passes = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];
  const rows: number[] = [];
  for (const [x0, y0, dx, dy] of passes as [number, number, number, number][]) {
    const w = width > x0 ? Math.ceil((width - x0) / dx) : 0;
    const h = height > y0 ? Math.ceil((height - y0) / dy) : 0;
    if (w > 0) for (let y = 0; y < h; y += 1) rows.push(w);
  }
  return rows;
}

/** A grey baseline JPEG: one component, DC and AC tables of one code each, every block flat. */
export function jpegFile(width: number, height: number): Buffer {
  const segment = (marker: number, body: number[]): number[] => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  // Each block: DC difference category 0 ("0") and end-of-block ("0"); pad the last byte with 1s.
  const bits = 2 * blocks;
  const scan = Buffer.alloc(Math.ceil(bits / 8));
  if (bits % 8 !== 0) scan[scan.length - 1] = 0xff >> (bits % 8);
  return Buffer.from([
    0xff, 0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0x00, ...Array.from({ length: 64 }, () => 1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, 1, ...Array.from({ length: 15 }, () => 0), 0x00]),
    ...segment(0xc4, [0x10, 1, ...Array.from({ length: 15 }, () => 0), 0x00]),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff, 0xd9,
  ]);
}

/** A two-colour GIF89a whose LZW data clears the table before every pixel (so codes stay 3 bits). */
export function gifFile(width: number, height: number): Buffer {
  const codes: number[] = [];
  for (let pixel = 0; pixel < width * height; pixel += 1) codes.push(4, 0);
  codes.push(5);
  const data = packBits(codes.map((code) => [code, 3] as const));
  const subBlocks: number[] = [];
  for (let offset = 0; offset < data.length; offset += 255) {
    const block = data.subarray(offset, offset + 255);
    subBlocks.push(block.length, ...block);
  }
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'), width & 0xff, width >> 8, height & 0xff, height >> 8, 0x80, 0, 0,
    0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
    0x2c, 0, 0, 0, 0, width & 0xff, width >> 8, height & 0xff, height >> 8, 0,
    2, ...subBlocks, 0,
    0x3b,
  ]);
}

/** A lossless WebP of one colour: five single-symbol prefix codes, so the pixels take no bits. */
export function webpFile(width: number, height: number): Buffer {
  const simple = (symbol: number): (readonly [number, number])[] =>
    symbol < 2 ? [[1, 1], [0, 1], [0, 1], [symbol, 1]] : [[1, 1], [0, 1], [1, 1], [symbol, 8]];
  const bitstream = packBits([
    [0x2f, 8], [width - 1, 14], [height - 1, 14], [1, 1], [0, 3],
    [0, 1], // no transform
    [0, 1], // no colour cache
    [0, 1], // no meta prefix codes
    ...simple(0), // green: literal 0
    ...simple(0xff), // red
    ...simple(0x40), // blue
    ...simple(0xff), // alpha
    ...simple(0), // distance
  ]);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), u32le(bitstream.length), bitstream, Buffer.alloc(bitstream.length % 2)]);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), u32le(4 + chunk.length), Buffer.from('WEBP', 'latin1'), chunk]);
}

function u32le(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
}

/** Packs `[value, bits]` fields least significant bit first (GIF's LZW and VP8L order). */
function packBits(fields: readonly (readonly [number, number])[]): Buffer {
  const bytes: number[] = [];
  let current = 0;
  let used = 0;
  for (const [value, bits] of fields) {
    for (let bit = 0; bit < bits; bit += 1) {
      current |= ((value >> bit) & 1) << used;
      used += 1;
      if (used === 8) {
        bytes.push(current);
        current = 0;
        used = 0;
      }
    }
  }
  if (used > 0) bytes.push(current);
  return Buffer.from(bytes);
}
