import type { ResultImageType } from '@openwork/tools-contract';
import { checkGif } from './gif-header.js';
import { invalid, type ImageCheck } from './image-facts.js';
import { checkJpeg } from './jpeg-header.js';
import { checkPngData, readPngLayout } from './png-header.js';
import { checkWebp } from './webp-header.js';

/**
 * Checks that `bytes` are a whole, valid image of `type` and returns its size from the header. A
 * provider that gets a broken image rejects the whole request, and the conversation with it, so
 * nothing that fails here reaches a model. `maxSide` is checked before PNG's pixel data is
 * inflated, so an oversized image costs no decompression.
 */
export async function checkImage(bytes: Uint8Array, type: ResultImageType, maxSide: number, signal: AbortSignal): Promise<ImageCheck> {
  switch (type) {
    case 'image/png': {
      const png = readPngLayout(bytes);
      if (!png.ok) return invalid(png.problem);
      if (png.layout.width > maxSide || png.layout.height > maxSide) return { ok: true, facts: { mimeType: type, width: png.layout.width, height: png.layout.height } };
      return checkPngData(png.layout, signal);
    }
    case 'image/jpeg':
      return checkJpeg(bytes);
    case 'image/gif':
      return checkGif(bytes);
    case 'image/webp':
      return checkWebp(bytes);
  }
}
