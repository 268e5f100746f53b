/** §7.1 / §9 `MAX_LINES`: the default and largest `limit` of read. */
export const READ_MAX_LINES = 2000;

/** §7.1 / §9 `MAX_LINE_CHARS`: a longer line is cut to this many characters (code points) and marked. */
export const READ_MAX_LINE_CHARS = 2000;

/** §7.1: bytes kept of each line while streaming; the rest is dropped as it is read. */
export const READ_KEPT_LINE_BYTES = 8000;

/** §7.1: what follows a line cut to 2,000 characters. */
export const LINE_TRUNCATED_MARKER = '... (line truncated to 2000 chars)';

/** The most image bytes `read` shows: the contract's per-result image bound (5 MiB, the Anthropic API's per-image limit). */
export { MAX_RESULT_IMAGE_BYTES as READ_MAX_IMAGE_BYTES } from '@openwork/tools-contract';
/** The most pixels on either side of an image `read` shows (the Anthropic API rejects larger ones). */
export const READ_MAX_IMAGE_SIDE = 8000;
/** The largest notebook `read` parses (JSON.parse holds all of it, a few times over). */
export const READ_MAX_NOTEBOOK_BYTES = 32 * 1024 * 1024;
