import type { ResultImageType } from '@openwork/tools-contract';

/** Bytes `sniffImageType` needs to decide. */
export const SNIFF_BYTES = 12;

/**
 * The image type the first bytes of a file announce (their signature), whatever its name says:
 * PNG's 8-byte signature, JPEG's SOI and a marker, `GIF87a`/`GIF89a`, or a RIFF container of `WEBP`.
 */
export function sniffImageType(head: Uint8Array): ResultImageType | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return 'image/webp';
  return undefined;
}

/** The image type a file name claims by its extension, if any. */
export function imageTypeOfName(name: string): ResultImageType | undefined {
  const extension = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase();
  switch (extension) {
    case 'png':
      return 'image/png';
    case 'jpg':
    case 'jpeg':
    case 'jpe':
    case 'jfif':
      return 'image/jpeg';
    case 'gif':
      return 'image/gif';
    case 'webp':
      return 'image/webp';
    default:
      return undefined;
  }
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

export function ascii(bytes: Uint8Array, start: number, length: number): string {
  if (start + length > bytes.length) return '';
  return String.fromCharCode(...bytes.subarray(start, start + length));
}
