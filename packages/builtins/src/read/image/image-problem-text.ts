import type { ResultImageType } from '@openwork/tools-contract';
import { READ_MAX_IMAGE_BYTES, READ_MAX_IMAGE_SIDE } from '../read-limits.js';
import { formatSize } from '../format-size.js';
import { IMAGE_TYPE_NAMES, type ImageFacts } from './image-facts.js';

const SHRINK =
  'Make a smaller copy (for example `convert IN -resize 2000x2000 OUT` with ImageMagick, or Pillow in python3) and read that; read does not downscale images itself.';

/** §bounds: the image is over 5 MiB; what to do instead. */
export function imageTooLargeText(display: string, type: ResultImageType, size: number): string {
  return `${display} is a ${IMAGE_TYPE_NAMES[type]} image of ${formatSize(size)} (${size} bytes); read shows images up to ${formatSize(READ_MAX_IMAGE_BYTES)}. ${SHRINK}`;
}

/** The image is over 8,000 px on a side, or `undefined` when it is within the bound. */
export function imageTooWideText(display: string, facts: ImageFacts): string | undefined {
  if (facts.width <= READ_MAX_IMAGE_SIDE && facts.height <= READ_MAX_IMAGE_SIDE) return undefined;
  return `${display} is a ${IMAGE_TYPE_NAMES[facts.mimeType]} image of ${facts.width}×${facts.height} px; read shows images up to ${READ_MAX_IMAGE_SIDE} px on a side. ${SHRINK}`;
}

/** The image's bytes are not a valid image of the type its signature announces. */
export function invalidImageText(display: string, type: ResultImageType, problem: string): string {
  return `${display} starts like a ${IMAGE_TYPE_NAMES[type]} image but is not a valid one: ${problem}. read shows whole, valid images only; check the file with bash (for example file or xxd).`;
}

/** The name promises an image, the content is none of the four types. */
export function notAnImageText(display: string, claimed: ResultImageType, head: Uint8Array): string {
  const start = [...head.subarray(0, 8)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return `${display} is named like a ${IMAGE_TYPE_NAMES[claimed]} image, but its content is not a PNG, JPEG, GIF or WebP image (${head.length === 0 ? 'it is empty' : `it starts with the bytes ${start}`}), so read does not show it. Check what it is with bash (for example file or xxd).`;
}
