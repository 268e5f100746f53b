import { invalid, valid, type ImageCheck } from './image-facts.js';

/** Start-of-frame markers (baseline, extended, progressive, lossless; Huffman and arithmetic), not DHT (C4), JPG (C8) or DAC (CC). */
const START_OF_FRAME = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/**
 * Walks a JPEG's markers from SOI to EOI: every segment must fit in the file, a start-of-frame
 * segment gives the size and must come before the first scan, and the entropy-coded data after
 * each scan must end at a marker. A file without EOI is truncated; bytes after EOI (some cameras
 * append data there) are ignored, as decoders do.
 */
export function checkJpeg(bytes: Uint8Array): ImageCheck {
  let offset = 2;
  let size: { width: number; height: number } | undefined;
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) return invalid(`it has no marker where one must start (byte ${offset}; the file is damaged)`);
    while (bytes[offset] === 0xff) offset += 1;
    const marker = bytes[offset];
    offset += 1;
    if (marker === undefined) break;
    if (marker === 0xd9) return size === undefined ? invalid('it ends (EOI) before any frame header') : valid('image/jpeg', size.width, size.height);
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (marker === 0xd8 || marker === 0x00) return invalid(`it has an unexpected marker 0x${marker.toString(16)} at byte ${offset - 1} (the file is damaged)`);
    if (offset + 2 > bytes.length) break;
    const length = (bytes[offset]! << 8) | bytes[offset + 1]!;
    if (length < 2 || offset + length > bytes.length) break;
    if (START_OF_FRAME.has(marker)) {
      if (length < 8) return invalid('its frame header is too short');
      size = { height: (bytes[offset + 3]! << 8) | bytes[offset + 4]!, width: (bytes[offset + 5]! << 8) | bytes[offset + 6]! };
      if (size.height === 0) return invalid('its frame header leaves the height to a later DNL marker, which read does not support');
    }
    offset += length;
    if (marker === 0xda) {
      if (size === undefined) return invalid('its first scan comes before any frame header');
      offset = endOfScan(bytes, offset);
    }
  }
  return invalid('it ends before its EOI marker (the file is truncated)');
}

/** The offset of the marker that ends the entropy-coded data starting at `offset` (stuffed `FF 00` and restarts skipped). */
function endOfScan(bytes: Uint8Array, offset: number): number {
  let index = offset;
  for (;;) {
    index = bytes.indexOf(0xff, index);
    if (index === -1 || index + 1 >= bytes.length) return bytes.length;
    const next = bytes[index + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
      index += next === 0xff ? 1 : 2;
      continue;
    }
    return index;
  }
}
