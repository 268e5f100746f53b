/**
 * The longest line `openwork mcp` and `openwork session` accept: 8 MiB (docs/decisions/0065-cli-bounded-input-lines.md). A bigger MCP
 * message or JSON Lines call is refused on its own and the stream goes on.
 */
export const MAX_INPUT_LINE_BYTES = 8 * 1024 * 1024;

// How much of an oversized line is kept to report on it (the request id sits at either end).
const KEPT_EDGE_BYTES = 4096;

/** One line of the input, or the report of one that was over the bound (its bytes are gone). */
export type InputLine =
  | { readonly kind: 'line'; readonly bytes: Buffer }
  | { readonly kind: 'oversized'; readonly length: number; readonly head: string; readonly tail: string };

/**
 * Splits a byte stream into `\n`-terminated lines (a final `\r` dropped) holding at most
 * `limit` bytes of any line: a longer one is discarded as it streams past, keeping only its first
 * and last 4 KiB, so memory stays flat whatever its length (a 1 GB line). Each chunk is
 * searched once for line ends and a line's chunks are joined once, at its end.
 */
export class BoundedLineSplitter {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #length = 0;
  #oversized = false;
  // The edges of an oversized line, in two fixed buffers: no allocation per chunk (bounded input).
  readonly #head = Buffer.alloc(KEPT_EDGE_BYTES);
  #headLength = 0;
  readonly #tail = Buffer.alloc(KEPT_EDGE_BYTES);
  #tailLength = 0;

  constructor(limit: number = MAX_INPUT_LINE_BYTES) {
    this.#limit = limit;
  }

  /** The lines `chunk` completes, in order. */
  push(chunk: Buffer): InputLine[] {
    const lines: InputLine[] = [];
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(0x0a, start);
      this.#take(chunk.subarray(start, end === -1 ? chunk.length : end));
      if (end === -1) break;
      lines.push(this.#finish());
      start = end + 1;
    }
    return lines;
  }

  /** The last line when the input ended without a `\n`. */
  end(): InputLine[] {
    return this.#length === 0 ? [] : [this.#finish()];
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#length += piece.length;
    if (!this.#oversized && this.#length > this.#limit) {
      // From here on the line is only counted; its edges are kept, never its chunks.
      this.#oversized = true;
      for (const chunk of this.#chunks) this.#keepEdges(chunk);
      this.#chunks = [];
    }
    if (this.#oversized) {
      this.#keepEdges(piece);
      return;
    }
    // A copy: the caller may read into the same buffer again (`readInputLines`).
    this.#chunks.push(Buffer.from(piece));
  }

  #keepEdges(piece: Buffer): void {
    if (this.#headLength < KEPT_EDGE_BYTES) this.#headLength += piece.copy(this.#head, this.#headLength);
    if (piece.length >= KEPT_EDGE_BYTES) {
      this.#tailLength = piece.copy(this.#tail, 0, piece.length - KEPT_EDGE_BYTES);
      return;
    }
    const kept = Math.min(this.#tailLength, KEPT_EDGE_BYTES - piece.length);
    this.#tail.copy(this.#tail, 0, this.#tailLength - kept, this.#tailLength);
    this.#tailLength = kept + piece.copy(this.#tail, kept);
  }

  #finish(): InputLine {
    const line: InputLine = this.#oversized
      ? {
          kind: 'oversized',
          length: this.#length,
          head: this.#head.toString('utf8', 0, this.#headLength),
          tail: this.#tail.toString('utf8', 0, this.#tailLength).replace(/\r$/, ''),
        }
      : { kind: 'line', bytes: stripCarriageReturn(this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks)) };
    this.#chunks = [];
    this.#length = 0;
    this.#oversized = false;
    this.#headLength = 0;
    this.#tailLength = 0;
    return line;
  }
}

function stripCarriageReturn(bytes: Buffer): Buffer {
  return bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, bytes.length - 1) : bytes;
}

/** The lines of `input` as they arrive; reading waits while the consumer works (back-pressure). */
export async function* readBoundedLines(input: AsyncIterable<Buffer | string>, limit: number = MAX_INPUT_LINE_BYTES): AsyncGenerator<InputLine> {
  const splitter = new BoundedLineSplitter(limit);
  for await (const chunk of input) yield* splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  yield* splitter.end();
}

/** `8 MiB`, `1.2 GiB`: a size for a message. */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1).replace(/\.0$/, '')} GiB`;
}
