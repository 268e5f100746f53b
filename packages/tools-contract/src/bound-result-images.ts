import { MAX_RESULT_IMAGE_BYTES, MAX_RESULT_IMAGES } from './result-image-limits.js';
import { ToolResult } from './tool-result.js';
import { imageByteLength, type ToolResultImage } from './tool-result-image.js';

/** The image bound; the defaults are the exported limits, smaller ones only exist for tests. */
export interface ImageLimits {
  readonly maxImageBytes: number;
  readonly maxImages: number;
}

const DEFAULT_LIMITS: ImageLimits = { maxImageBytes: MAX_RESULT_IMAGE_BYTES, maxImages: MAX_RESULT_IMAGES };

/**
 * The image half of the fallback cut, applied to every result of `FinalizedToolset.call` before
 * the text cut: images are kept in order while they fit in `MAX_RESULT_IMAGES` parts and
 * `MAX_RESULT_IMAGE_BYTES` decoded bytes in total; the rest are dropped (an image is never cut or
 * re-encoded) and the text ends with a line saying how many were left out. Tools should stay
 * inside the bound themselves (builtins do, with a better message); this catches the others.
 */
export function boundResultImages(result: ToolResult, limits: ImageLimits = DEFAULT_LIMITS): ToolResult {
  const images = ToolResult.images(result);
  if (images.length === 0) return result;
  const kept: ToolResultImage[] = [];
  let bytes = 0;
  let omittedBytes = 0;
  for (const image of images) {
    const size = imageByteLength(image);
    if (kept.length < limits.maxImages && bytes + size <= limits.maxImageBytes) {
      kept.push(image);
      bytes += size;
    } else {
      omittedBytes += size;
    }
  }
  if (kept.length === images.length) return result;
  const omitted = images.length - kept.length;
  const note = `[${omitted} ${omitted === 1 ? 'image' : 'images'} (${omittedBytes} bytes) left out: a result carries at most ${limits.maxImages} images and ${limits.maxImageBytes} bytes of image data. Ask for fewer images at a time.]`;
  const text = ToolResult.text(result);
  return ToolResult.success(text === '' ? note : `${text}\n${note}`, {
    images: kept,
    artifacts: result.artifacts,
    sandboxDenied: result.sandboxDenied,
  });
}
