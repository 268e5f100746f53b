import type { SpillWriter } from '../spill/spill-writer.js';
import type { FileOutcome } from './file-outcome.js';
import type { GrepOutputMode, ShownLine } from './file-scan.js';
import { GREP_MAX_FILES, GREP_MAX_LINES, GREP_MAX_LINES_PER_FILE } from './search-limits.js';

/** What one file contributed, as a scanner reports it. */
export interface GrepFileResult {
  readonly count: number;
  readonly shown: readonly ShownLine[];
  readonly outcome: FileOutcome;
  /** Cut short by the limit or cancellation: `count` is a lower bound. */
  readonly stopped: boolean;
}

/** One file's group in content mode. */
export interface GrepGroup {
  readonly displayPath: string;
  readonly lines: readonly ShownLine[];
  /** Matching lines of the file not shown (§7.6 `(+N more matching lines in this file)`). */
  readonly more: number;
}

/** The bounded result of a grep, ready to format. */
export interface GrepTally {
  readonly mode: GrepOutputMode;
  /** Content mode. */
  readonly groups: readonly GrepGroup[];
  /** files_with_matches (`path`) and count (`path:count`) modes. */
  readonly listed: readonly string[];
  readonly shownLines: number;
  readonly matchingLines: number;
  readonly matchingFiles: number;
  /** Something was counted but not shown: the footer gives totals and the full list. */
  readonly omitted: boolean;
}

export interface GrepCollectorOptions {
  readonly mode: GrepOutputMode;
  /** Where the full list goes (§8.2); `undefined` without a spill directory. */
  readonly list: SpillWriter | undefined;
  /** Called once when 250 lines are shown: later files need not keep lines for display. */
  readonly onShownFull?: () => void;
  /** A piece of a worker's full list was written (or dropped): its backpressure credit returns. */
  readonly onListWritten?: (slot: number, bytes: number) => void;
}

interface PendingFile {
  readonly displayPath: string;
  readonly pieces: { readonly bytes: Uint8Array; readonly slot: number }[];
  result: GrepFileResult | undefined;
}

/**
 * Puts the results of a grep in walk order, whatever order the scanners finish in, and keeps only
 * what is shown plus the counts (§7.6 "内存只保留返回的部分与计数"): 250 lines in all and 50 per
 * file (content), 250 files (the other modes); every match is counted and goes to the full list,
 * streamed to the spill file in walk order (§8.2). Files are announced with `expect` in walk
 * order before their results arrive; memory holds only files in flight.
 */
export class GrepCollector {
  readonly #options: GrepCollectorOptions;
  readonly #pending = new Map<number, PendingFile>();
  #next = 0;
  #pumping: Promise<void> | undefined;
  /** Something arrived while a pump was running: run it again when it ends (no lost wake-up). */
  #again = false;
  #finalizing = false;
  readonly #groups: GrepGroup[] = [];
  readonly #listed: string[] = [];
  #shownLines = 0;
  #matchingLines = 0;
  #matchingFiles = 0;
  #omitted = false;

  constructor(options: GrepCollectorOptions) {
    this.#options = options;
  }

  /** Announces the file `seq` (walk order, from 0 up, no gaps). */
  expect(seq: number, displayPath: string): void {
    this.#pending.set(seq, { displayPath, pieces: [], result: undefined });
  }

  /** A piece of the full list of file `seq` (content mode, `path:line:text` lines as bytes), from the scanner in `slot`. */
  addListBytes(seq: number, bytes: Uint8Array, slot: number): void {
    const file = this.#pending.get(seq);
    if (file === undefined) {
      this.#options.onListWritten?.(slot, bytes.length);
      return;
    }
    file.pieces.push({ bytes, slot });
    if (seq === this.#next) this.#schedule();
  }

  /** The result of file `seq`. */
  addResult(seq: number, result: GrepFileResult): void {
    const file = this.#pending.get(seq);
    if (file === undefined) return;
    file.result = result;
    if (seq === this.#next) this.#schedule();
  }

  /** Resolves when everything that can be committed now is committed. */
  async settle(): Promise<void> {
    while (this.#pumping !== undefined) await this.#pumping;
  }

  /**
   * No more results will come: commit what arrived, in order, skipping files that were never
   * scanned (the scan was stopped), and return the tally.
   */
  async finish(): Promise<GrepTally> {
    this.#finalizing = true;
    this.#schedule();
    await this.settle();
    return {
      mode: this.#options.mode,
      groups: this.#groups,
      listed: this.#listed,
      shownLines: this.#shownLines,
      matchingLines: this.#matchingLines,
      matchingFiles: this.#matchingFiles,
      omitted: this.#omitted,
    };
  }

  #schedule(): void {
    if (this.#pumping !== undefined) {
      this.#again = true;
      return;
    }
    this.#again = false;
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = undefined;
      if (this.#again) this.#schedule();
    });
  }

  async #pump(): Promise<void> {
    for (;;) {
      let head = this.#pending.get(this.#next);
      if (head === undefined) {
        if (!this.#finalizing) return;
        // Files never scanned leave gaps; the map keeps walk order, so its first key is next.
        const first = this.#pending.keys().next();
        if (first.done === true) return;
        this.#next = first.value;
        head = this.#pending.get(this.#next)!;
      }
      const piece = head.pieces.shift();
      if (piece !== undefined) {
        await this.#options.list?.writeBytes(piece.bytes);
        this.#options.onListWritten?.(piece.slot, piece.bytes.length);
        continue;
      }
      if (head.result === undefined && !this.#finalizing) return;
      this.#pending.delete(this.#next);
      this.#next += 1;
      if (head.result === undefined) continue;
      const line = this.#commit(head.displayPath, head.result);
      if (line !== undefined) await this.#options.list?.write(line);
    }
  }

  /** Takes one file's result into the totals and the shown part; returns its full-list line. */
  #commit(displayPath: string, result: GrepFileResult): string | undefined {
    if (result.count === 0) return undefined;
    this.#matchingFiles += 1;
    this.#matchingLines += result.count;
    const mode = this.#options.mode;
    if (mode !== 'content') {
      const entry = mode === 'count' ? `${displayPath}:${result.count}` : displayPath;
      if (this.#listed.length < GREP_MAX_FILES) this.#listed.push(entry);
      else this.#omitted = true;
      return `${entry}\n`;
    }
    const room = GREP_MAX_LINES - this.#shownLines;
    const take = Math.min(room, GREP_MAX_LINES_PER_FILE, result.shown.length, result.count);
    if (take > 0) {
      this.#groups.push({ displayPath, lines: result.shown.slice(0, take), more: result.count - take });
      this.#shownLines += take;
      if (this.#shownLines >= GREP_MAX_LINES) this.#options.onShownFull?.();
    }
    if (take < result.count) this.#omitted = true;
    return undefined;
  }
}
