import type { ResultImageType } from '@openwork/tools-contract';

/** What the header of a valid image says. */
export interface ImageFacts {
  readonly mimeType: ResultImageType;
  readonly width: number;
  readonly height: number;
}

/** The outcome of checking an image's bytes: its facts, or what is wrong with it. */
export type ImageCheck = { readonly ok: true; readonly facts: ImageFacts } | { readonly ok: false; readonly problem: string };

/** Short names for messages: `PNG`, `JPEG`, `GIF`, `WebP`. */
export const IMAGE_TYPE_NAMES: Readonly<Record<ResultImageType, string>> = Object.freeze({
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
});

export function invalid(problem: string): ImageCheck {
  return { ok: false, problem };
}

export function valid(mimeType: ResultImageType, width: number, height: number): ImageCheck {
  if (width === 0 || height === 0) return invalid(`its header gives a size of ${width}×${height} px`);
  return { ok: true, facts: { mimeType, width, height } };
}
