import { invalid, valid, type ImageCheck } from './image-facts.js';

/**
 * Walks a GIF's blocks (GIF89a spec): the logical screen descriptor gives the size, then colour
 * tables, extensions and images with their LZW data sub-blocks, up to the trailer (`;`). At least
 * one image must come before it; a file that ends first is truncated.
 */
export function checkGif(bytes: Uint8Array): ImageCheck {
  if (bytes.length < 13) return invalid('it ends inside its header (the file is truncated)');
  const width = bytes[6]! | (bytes[7]! << 8);
  const height = bytes[8]! | (bytes[9]! << 8);
  let offset = 13 + colourTableBytes(bytes[10]!);
  let images = 0;
  while (offset < bytes.length) {
    const block = bytes[offset]!;
    if (block === 0x3b) return images === 0 ? invalid('it has no image before its trailer') : valid('image/gif', width, height);
    if (block === 0x21) {
      offset = skipSubBlocks(bytes, offset + 2);
    } else if (block === 0x2c) {
      if (offset + 10 > bytes.length) break;
      // Image descriptor (10 bytes), local colour table, LZW minimum code size, data sub-blocks.
      offset = skipSubBlocks(bytes, offset + 10 + colourTableBytes(bytes[offset + 9]!) + 1);
      images += 1;
    } else {
      return invalid(`it has an unknown block 0x${block.toString(16)} at byte ${offset} (the file is damaged)`);
    }
  }
  return invalid('it ends before its trailer (the file is truncated)');
}

function colourTableBytes(flags: number): number {
  return (flags & 0x80) === 0 ? 0 : 3 * 2 ** ((flags & 0x07) + 1);
}

/** The offset after the sub-blocks starting at `offset` and their terminator; past the end when they run out. */
function skipSubBlocks(bytes: Uint8Array, offset: number): number {
  let index = offset;
  while (index < bytes.length) {
    const size = bytes[index]!;
    index += 1 + size;
    if (size === 0) return index;
  }
  return bytes.length + 1;
}
