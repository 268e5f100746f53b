import { RESULT_IMAGE_TYPES, type ResultImageType } from './result-image-limits.js';

/**
 * Model-visible image content of a result: base64 data (no `data:` prefix) of one of the four
 * image types. Hosts that cannot show images still have the result's text part, which always
 * comes first and describes each image.
 */
export interface ToolResultImage {
  readonly type: 'image';
  readonly mimeType: ResultImageType;
  /** Standard base64 (RFC 4648 §4, padded). */
  readonly data: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Why `value` is not a `ToolResultImage`, or `undefined` when it is one (stores check records with it too). */
export function imageProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'an image must be an object { type: "image", mimeType, data }';
  const { type, mimeType, data } = value as Record<string, unknown>;
  if (type !== 'image') return 'an image part must have type "image"';
  if (typeof mimeType !== 'string' || !(RESULT_IMAGE_TYPES as readonly string[]).includes(mimeType)) {
    return `an image's mimeType must be one of ${RESULT_IMAGE_TYPES.join(', ')}`;
  }
  if (typeof data !== 'string' || data === '' || !BASE64.test(data)) return "an image's data must be non-empty, padded standard base64";
  return undefined;
}

/** The decoded size of an image's base64 data, without decoding it. */
export function imageByteLength(image: ToolResultImage): number {
  const padding = image.data.endsWith('==') ? 2 : image.data.endsWith('=') ? 1 : 0;
  return (image.data.length / 4) * 3 - padding;
}
