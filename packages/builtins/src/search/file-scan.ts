import { isUtf8 } from 'node:buffer';
import { ByteKernel } from './byte-kernel.js';
import { countNewlines } from './count-newlines.js';
import type { LineMatcher } from './line-matcher.js';
import { GREP_MAX_LINE_BYTES, LINE_CUT_MARKER } from './search-limits.js';
import { shownLineText } from './shown-line-text.js';

const CUT_MARKER_BYTES = Buffer.from(LINE_CUT_MARKER, 'utf8');
/** A line number's decimal digits, `:` and `\n`, at most. */
const ENTRY_OVERHEAD_BYTES = 16;

/** §7.6 `outputMode`. */
export type GrepOutputMode = 'content' | 'files_with_matches' | 'count';

/** One matching line as content mode shows it. */
export interface ShownLine {
  readonly line: number;
  readonly text: string;
}

export interface FileScanOptions {
  readonly mode: GrepOutputMode;
  readonly matcher: LineMatcher;
  /** Asked before each match is taken (§7.6: cancellation and the limit are checked per match). */
  readonly shouldStop: () => boolean;
  /** How many matching lines to keep for display (content mode), at most 50 (§7.6). */
  readonly shownLimit: number;
  /** Content mode: the `path:` that starts each line of the full list (encoded at the first match). */
  readonly listPrefix: string;
  /** Content mode: where the full list (`path:line:text\n` lines) is written, as bytes. */
  readonly list: ListOutput;
}

/**
 * Bytes of the full list being written (content mode), owned by the caller: `ensure` makes room
 * for `bytes` more at `buffer[length]` (handing what is there to its consumer first, if need be).
 * The list is built from the file's own bytes, so a line is neither decoded nor encoded again:
 * that decoding, and the strings it made, were most of a search with many matches (search performance).
 */
export interface ListOutput {
  buffer: Buffer;
  length: number;
  ensure(bytes: number): void;
}

export interface FileScanResult {
  /** Matching lines counted (1 at most in files_with_matches mode, which stops at the first). */
  readonly count: number;
  readonly shown: readonly ShownLine[];
  /** The scan was stopped by `shouldStop` before the end of the file: `count` is a lower bound. */
  readonly stopped: boolean;
}

/**
 * The matches of one file, region by region (a region is a run of whole lines; the last one may
 * end without `\n`). Counting goes on past the display caps (§7.6); line numbers are computed only
 * for matching lines, and only in content mode; nothing but matching lines is decoded.
 */
export class FileScan {
  readonly #options: FileScanOptions;
  #count = 0;
  #shown: ShownLine[] = [];
  #stopped = false;
  #done = false;
  /** Number of the first line of the next region. */
  #lineBase = 1;
  #prefix: Buffer | undefined;

  constructor(options: FileScanOptions) {
    this.#options = options;
  }

  /**
   * Scans one region; `false` when no more input is wanted (stopped, or files mode found one).
   * `last`: no region follows, so the line ends after the last match need not be counted (that
   * count, for every file, was most of the cost of a search with few matches).
   */
  region(bytes: Buffer, last = false): boolean {
    if (this.#done) return false;
    const options = this.#options;
    const content = options.mode === 'content';
    let lineNumber = this.#lineBase;
    let countedTo = 0;
    const kernel = ByteKernel.get();
    const count = kernel !== undefined && kernel.holds(bytes) ? kernel.countLines.bind(kernel) : countNewlines;
    /** Whether the region is valid UTF-8 (then its lines go to the list as they are); asked at the first match. */
    let valid: boolean | undefined;
    const completed = options.matcher.search(bytes, (start, end) => {
      if (options.shouldStop()) {
        this.#stopped = true;
        return false;
      }
      this.#count += 1;
      if (options.mode === 'files_with_matches') return false;
      if (!content) return true;
      lineNumber += count(bytes, countedTo, start);
      countedTo = start;
      if (this.#shown.length < options.shownLimit) this.#shown.push({ line: lineNumber, text: shownLineText(bytes, start, end) });
      valid ??= isUtf8(bytes);
      this.#listLine(bytes, start, end, lineNumber, valid);
      return true;
    });
    if (!completed) {
      this.#done = true;
      return false;
    }
    if (content && !last) this.#lineBase = lineNumber + count(bytes, countedTo, bytes.length);
    return true;
  }

  /** The outcome. */
  finish(): FileScanResult {
    this.#done = true;
    return { count: this.#count, shown: this.#shown, stopped: this.#stopped };
  }

  /**
   * Appends `prefix line:text\n` for the line `[start, end)`: the same text `shownLineText` gives
   * (cut at 2,000 bytes and marked, no trailing `\r`, invalid UTF-8 as U+FFFD), as bytes.
   */
  #listLine(bytes: Buffer, start: number, end: number, lineNumber: number, valid: boolean): void {
    const { list } = this.#options;
    const prefix = (this.#prefix ??= Buffer.from(this.#options.listPrefix, 'utf8'));
    let textEnd = end > start && bytes[end - 1] === 13 ? end - 1 : end;
    let cut = false;
    if (end - start > GREP_MAX_LINE_BYTES) {
      textEnd = start + GREP_MAX_LINE_BYTES;
      while (textEnd > start && (bytes[textEnd]! & 0xc0) === 0x80) textEnd -= 1;
      cut = true;
    }
    const text = valid ? undefined : Buffer.from(bytes.toString('utf8', start, textEnd), 'utf8');
    const textBytes = text === undefined ? textEnd - start : text.length;
    list.ensure(prefix.length + textBytes + (cut ? CUT_MARKER_BYTES.length : 0) + ENTRY_OVERHEAD_BYTES);
    const target = list.buffer;
    let at = list.length;
    target.set(prefix, at);
    at += prefix.length;
    at = writeDecimal(target, at, lineNumber);
    target[at++] = 58; // ':'
    at += text === undefined ? bytes.copy(target, at, start, textEnd) : text.copy(target, at);
    if (cut) at += CUT_MARKER_BYTES.copy(target, at);
    target[at++] = 10;
    list.length = at;
  }
}

/** Writes `value` (a positive integer) in decimal at `at`; returns the index after it. */
function writeDecimal(target: Buffer, at: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  let rest = value;
  for (let index = at + digits - 1; index >= at; index -= 1) {
    target[index] = 48 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}
