import { countNewlines } from './count-newlines.js';
import type { LineMatcher } from './line-matcher.js';
import { shownLineText } from './shown-line-text.js';

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
  /** Content mode: the `path:` that starts each line of the full list. */
  readonly listPrefix: string;
  /** Content mode: the full list (`path:line:text\n` lines), in pieces of about `listChunkChars`. */
  readonly onListText: (text: string) => void;
  readonly listChunkChars: number;
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
  #list = '';

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
    const completed = options.matcher.search(bytes, (start, end) => {
      if (options.shouldStop()) {
        this.#stopped = true;
        return false;
      }
      this.#count += 1;
      if (options.mode === 'files_with_matches') return false;
      if (!content) return true;
      lineNumber += countNewlines(bytes, countedTo, start);
      countedTo = start;
      const text = shownLineText(bytes, start, end);
      if (this.#shown.length < options.shownLimit) this.#shown.push({ line: lineNumber, text });
      this.#list += `${options.listPrefix}${lineNumber}:${text}\n`;
      if (this.#list.length >= options.listChunkChars) this.#flushList();
      return true;
    });
    if (!completed) {
      this.#done = true;
      return false;
    }
    if (content && !last) this.#lineBase = lineNumber + countNewlines(bytes, countedTo, bytes.length);
    return true;
  }

  /** The outcome; flushes the rest of the full list. */
  finish(): FileScanResult {
    this.#done = true;
    this.#flushList();
    return { count: this.#count, shown: this.#shown, stopped: this.#stopped };
  }

  #flushList(): void {
    if (this.#list.length === 0) return;
    const text = this.#list;
    this.#list = '';
    this.#options.onListText(text);
  }
}
