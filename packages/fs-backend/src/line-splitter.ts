import type { FileLine } from './file-line.js';
import { Utf8Validator, wholeCharacterEnd } from './utf8-validator.js';

const newline = 0x0a;
const carriageReturn = 0x0d;

/** A delivered line; `text` is decoded only when somebody asks (read shows 2000 chars of a few lines). */
class DeliveredLine implements FileLine {
  readonly number: number;
  readonly bytes: Buffer;
  readonly byteLength: number;
  readonly truncated: boolean;
  readonly hasNul: boolean;
  readonly isValidUtf8: boolean;
  readonly terminator: 'lf' | 'crlf' | 'none';
  #text: string | undefined;

  constructor(
    number: number,
    bytes: Buffer,
    byteLength: number,
    hasNul: boolean,
    isValidUtf8: boolean,
    terminator: 'lf' | 'crlf' | 'none',
  ) {
    this.number = number;
    this.bytes = bytes;
    this.byteLength = byteLength;
    this.truncated = byteLength > bytes.length;
    this.hasNul = hasNul;
    this.isValidUtf8 = isValidUtf8;
    this.terminator = terminator;
  }

  get text(): string {
    if (this.#text === undefined) {
      const end = this.truncated ? wholeCharacterEnd(this.bytes) : this.bytes.length;
      this.#text = this.bytes.toString('utf8', 0, end);
    }
    return this.#text;
  }
}

/** Options of {@link LineSplitter}. */
export interface LineSplitterOptions {
  readonly maxLineBytes: number;
  readonly firstLine: number;
  readonly onLine: ((line: FileLine) => boolean | void) | undefined;
}

/**
 * The single-pass line machinery behind `readLines` (§7.1): fed the file's chunks in order, it
 * counts every `\n`, and for delivered lines keeps only the first `maxLineBytes` bytes while still
 * checking the whole line for NUL bytes and UTF-8 validity. Memory is one line buffer of
 * `maxLineBytes` whatever the line length; lines outside the delivered range are counted with
 * `Buffer.indexOf` and never copied or decoded. Internal.
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #firstLine: number;
  readonly #onLine: ((line: FileLine) => boolean | void) | undefined;
  /** Completed (`\n`-terminated) lines so far. */
  #newlines = 0;
  #lastByte = -1;
  #delivering = false;
  #stopped = false;
  readonly #kept: Buffer;
  #keptLength = 0;
  #rawLength = 0;
  #lineLastByte = -1;
  #hasNul = false;
  readonly #validator = new Utf8Validator();

  constructor(options: LineSplitterOptions) {
    this.#maxLineBytes = options.maxLineBytes;
    this.#firstLine = options.firstLine;
    this.#onLine = options.onLine;
    this.#stopped = options.onLine === undefined;
    this.#kept = Buffer.allocUnsafe(options.maxLineBytes);
    this.#delivering = !this.#stopped && options.firstLine <= 1;
  }

  /** Bytes this splitter holds between chunks: the one line buffer (for memory tests). */
  get retainedBytes(): number {
    return this.#kept.length;
  }

  push(chunk: Buffer): void {
    const length = chunk.length;
    if (length === 0) return;
    let position = 0;
    while (position < length) {
      if (this.#delivering) {
        const found = chunk.indexOf(newline, position);
        const end = found === -1 ? length : found;
        if (end > position) this.#append(chunk, position, end);
        if (found === -1) break;
        position = found + 1;
        this.#emit(true);
      } else if (this.#stopped) {
        let count = 0;
        for (let found = chunk.indexOf(newline, position); found !== -1; found = chunk.indexOf(newline, found + 1)) count += 1;
        this.#newlines += count;
        break;
      } else {
        // Skip to the start of `firstLine`, counting only.
        const toSkip = this.#firstLine - 1 - this.#newlines;
        let skipped = 0;
        while (skipped < toSkip) {
          const found = chunk.indexOf(newline, position);
          if (found === -1) {
            position = length;
            break;
          }
          skipped += 1;
          position = found + 1;
        }
        this.#newlines += skipped;
        if (this.#newlines === this.#firstLine - 1) this.#delivering = true;
      }
    }
    this.#lastByte = chunk[length - 1] as number;
  }

  /** Delivers an unterminated last line and returns the total line count. */
  finish(): number {
    if (this.#delivering && this.#rawLength > 0) this.#emit(false);
    return this.#newlines + (this.#lastByte !== -1 && this.#lastByte !== newline ? 1 : 0);
  }

  #append(chunk: Buffer, start: number, end: number): void {
    const room = this.#maxLineBytes - this.#keptLength;
    if (room > 0) {
      const copyEnd = Math.min(end, start + room);
      chunk.copy(this.#kept, this.#keptLength, start, copyEnd);
      this.#keptLength += copyEnd - start;
    }
    const piece = chunk.subarray(start, end);
    if (!this.#hasNul && piece.indexOf(0) !== -1) this.#hasNul = true;
    this.#validator.push(piece);
    this.#rawLength += end - start;
    this.#lineLastByte = chunk[end - 1] as number;
  }

  #emit(terminated: boolean): void {
    const crlf = terminated && this.#rawLength > 0 && this.#lineLastByte === carriageReturn;
    const byteLength = crlf ? this.#rawLength - 1 : this.#rawLength;
    const bytes = Buffer.from(this.#kept.subarray(0, Math.min(this.#keptLength, byteLength)));
    const line = new DeliveredLine(
      this.#newlines + 1,
      bytes,
      byteLength,
      this.#hasNul,
      this.#validator.isValid,
      crlf ? 'crlf' : terminated ? 'lf' : 'none',
    );
    if (terminated) this.#newlines += 1;
    this.#keptLength = 0;
    this.#rawLength = 0;
    this.#lineLastByte = -1;
    this.#hasNul = false;
    this.#validator.reset();
    if ((this.#onLine as (line: FileLine) => boolean | void)(line) === false) {
      this.#delivering = false;
      this.#stopped = true;
    }
  }
}
