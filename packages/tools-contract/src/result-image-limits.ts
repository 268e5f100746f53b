/**
 * The image bound of a result, apart from the 32,000-byte text cut (§8.2 applies to text only):
 * decoded image bytes per result, in total. 5 MiB is the most the Anthropic Messages API takes per
 * image, and the most `read` shows.
 */
export const MAX_RESULT_IMAGE_BYTES = 5 * 1024 * 1024;

/** How many image parts one result carries at most; a notebook with more says what it left out. */
export const MAX_RESULT_IMAGES = 20;

/** The image types a result may carry: the four every provider with image input takes. */
export const RESULT_IMAGE_TYPES = Object.freeze(['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const);

/** One of `RESULT_IMAGE_TYPES`. */
export type ResultImageType = (typeof RESULT_IMAGE_TYPES)[number];
