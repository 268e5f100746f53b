import { invalid, valid, type ImageCheck } from './image-facts.js';
import { ascii } from './sniff-image-type.js';

/**
 * Checks a WebP's RIFF container: the RIFF size must match the file (shorter is truncated), every
 * chunk must fit inside it, and the first chunk gives the size — `VP8 ` (lossy: its start code and
 * 14-bit sizes), `VP8L` (lossless: its signature and 14-bit sizes minus one) or `VP8X` (extended:
 * 24-bit canvas sizes minus one), with VP8X followed by image data.
 */
export function checkWebp(bytes: Uint8Array): ImageCheck {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 20) return invalid('it ends inside its header (the file is truncated)');
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > bytes.length) return invalid(`its RIFF header promises ${riffEnd} bytes but the file has ${bytes.length} (the file is truncated)`);
  let size: { width: number; height: number } | string | undefined;
  let hasImageData = false;
  let offset = 12;
  while (offset + 8 <= riffEnd) {
    const type = ascii(bytes, offset, 4);
    const length = view.getUint32(offset + 4, true);
    const data = offset + 8;
    if (data + length > riffEnd) return invalid(`its ${type.trim() || 'next'} chunk runs past the end of the file (the file is truncated)`);
    if (size === undefined) size = firstChunkSize(type, bytes.subarray(data, data + length));
    if (type === 'VP8 ' || type === 'VP8L' || type === 'ANMF') hasImageData = true;
    offset = data + length + (length % 2);
  }
  if (typeof size === 'string') return invalid(size);
  if (size === undefined || !hasImageData) return invalid('it has no VP8, VP8L or animation frame chunk (no image data)');
  return valid('image/webp', size.width, size.height);
}

function firstChunkSize(type: string, data: Uint8Array): { width: number; height: number } | string {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  switch (type) {
    case 'VP8 ':
      if (data.length < 10 || data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) return 'its VP8 chunk lacks the start code of a key frame';
      return { width: view.getUint16(6, true) & 0x3fff, height: view.getUint16(8, true) & 0x3fff };
    case 'VP8L': {
      if (data.length < 5 || data[0] !== 0x2f) return 'its VP8L chunk lacks the lossless signature';
      const bits = view.getUint32(1, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      if (data.length < 10) return 'its VP8X chunk is too short';
      return { width: 1 + (data[4]! | (data[5]! << 8) | (data[6]! << 16)), height: 1 + (data[7]! | (data[8]! << 8) | (data[9]! << 16)) };
    default:
      return `its first chunk is ${JSON.stringify(type)}, not VP8, VP8L or VP8X`;
  }
}
