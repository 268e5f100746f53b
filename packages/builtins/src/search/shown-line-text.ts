import { GREP_MAX_LINE_BYTES, LINE_CUT_MARKER } from './search-limits.js';

/**
 * The text of a matching line `[start, end)` as grep shows it (§7.6): at most 2,000 bytes, cut at
 * a character boundary and marked; a trailing `\r` (CRLF files) is not shown; invalid UTF-8 shows
 * as U+FFFD. Only matching lines are ever decoded.
 */
export function shownLineText(bytes: Buffer, start: number, end: number): string {
  if (end - start > GREP_MAX_LINE_BYTES) {
    let cut = start + GREP_MAX_LINE_BYTES;
    // Back off continuation bytes so no character is split.
    while (cut > start && (bytes[cut]! & 0xc0) === 0x80) cut -= 1;
    return `${bytes.toString('utf8', start, cut)}${LINE_CUT_MARKER}`;
  }
  const last = end > start && bytes[end - 1] === 13 ? end - 1 : end;
  return bytes.toString('utf8', start, last);
}
