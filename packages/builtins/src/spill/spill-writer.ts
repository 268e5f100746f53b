import type { FileHandle } from 'node:fs/promises';
import { openSpillFile, removeSpillFile } from './open-spill-file.js';
import type { SpillLocation } from './spill-location.js';
import { utf8PrefixLength } from './utf8-prefix.js';

/** Once the file exists, what is buffered is written when it passes this many bytes (at most the buffer's size). */
const STREAM_WRITE_BYTES = 256 * 1024;

/** What a finished `SpillWriter` amounts to. */
export type SpillOutcome =
  | {
      readonly saved: true;
      readonly location: SpillLocation;
      readonly bytesWritten: number;
      /** The cap was reached: only the first `maxBytes` are saved ("only the first 64 MB saved"). */
      readonly truncated: boolean;
    }
  | {
      /** Nothing was saved (a write failed, or the writer was discarded): show no path (§8.2). */
      readonly saved: false;
      readonly reason: string;
    };

/**
 * A full list streamed to a spill file (§8.2, grep and glob): text is buffered in memory up to
 * `bufferBytes` (256 KiB), then the file is created and the rest goes to disk in writes of up to
 * 64 KiB (one write per list entry cost glob `**\/*` 0.17 ms a file, search performance), so memory stays
 * bounded by `bufferBytes` however long the list. Bytes past `maxBytes` (64 MiB) are only counted.
 * Call `finish()` when the result omitted something (the file is kept) or `discard()` when it
 * did not (no file is left, §8.2 "没有省略时不留文件"). A failure deletes the partial file and
 * `finish()` reports `saved: false`. Await each `write` before the next.
 */
export class SpillWriter {
  readonly location: SpillLocation;
  readonly #maxBytes: number;
  readonly #bufferBytes: number;
  #buffer: Uint8Array[] = [];
  #bufferedBytes = 0;
  #acceptedBytes = 0;
  #truncated = false;
  #handle: FileHandle | undefined;
  #failure: string | undefined;
  #closed = false;

  constructor(location: SpillLocation, maxBytes: number, bufferBytes: number) {
    this.location = location;
    this.#maxBytes = maxBytes;
    this.#bufferBytes = bufferBytes;
  }

  /** Bytes accepted so far (at most `maxBytes`). */
  get acceptedBytes(): number {
    return this.#acceptedBytes;
  }

  /** Whether text was dropped at the cap. */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** Appends `text`. Never rejects: a failure is remembered and reported by `finish()`. */
  async write(text: string): Promise<void> {
    if (text.length > 0) await this.writeBytes(Buffer.from(text, 'utf8'));
  }

  /**
   * Appends UTF-8 `bytes` (kept, not copied, until written: the caller must not change them).
   * Never rejects, like `write`.
   */
  async writeBytes(bytes: Uint8Array): Promise<void> {
    if (this.#closed || this.#failure !== undefined || bytes.length === 0) return;
    // Once something was dropped, nothing after it may be saved: the file is a prefix of the list.
    if (this.#truncated) return;
    const room = this.#maxBytes - this.#acceptedBytes;
    if (room <= 0) {
      this.#truncated = true;
      return;
    }
    if (bytes.length > room) {
      bytes = bytes.subarray(0, utf8PrefixLength(bytes, room));
      this.#truncated = true;
    }
    if (bytes.length === 0) return;
    this.#acceptedBytes += bytes.length;
    this.#buffer.push(bytes);
    this.#bufferedBytes += bytes.length;
    const threshold = this.#handle === undefined ? this.#bufferBytes : Math.min(this.#bufferBytes, STREAM_WRITE_BYTES);
    if (this.#bufferedBytes > threshold) await this.#flush();
  }

  /** Saves what was written and closes the file; the outcome says where, or why nothing was saved. */
  async finish(): Promise<SpillOutcome> {
    if (this.#closed) return { saved: false, reason: 'the spill writer was already closed' };
    await this.#flush();
    this.#closed = true;
    if (this.#handle !== undefined) {
      try {
        await this.#handle.close();
      } catch (error) {
        this.#fail(error);
      }
    }
    if (this.#failure !== undefined) {
      await removeSpillFile(this.location.path);
      return { saved: false, reason: this.#failure };
    }
    return { saved: true, location: this.location, bytesWritten: this.#acceptedBytes, truncated: this.#truncated };
  }

  /** Nothing was omitted, or the call failed: remove the file, if any, and keep nothing. */
  async discard(): Promise<void> {
    this.#closed = true;
    this.#buffer = [];
    this.#bufferedBytes = 0;
    if (this.#handle !== undefined) await this.#handle.close().catch(() => undefined);
    if (this.#handle !== undefined || this.#failure !== undefined) await removeSpillFile(this.location.path);
  }

  async #flush(): Promise<void> {
    if (this.#failure !== undefined || this.#closed) return;
    try {
      this.#handle ??= await openSpillFile(this.location.path);
      const chunks = this.#buffer;
      this.#buffer = [];
      this.#bufferedBytes = 0;
      // Many small texts (glob's paths) are joined; grep's buffers of full list go as they are.
      if (chunks.length > 0) await writeFully(this.#handle, chunks.length > 16 ? [Buffer.concat(chunks)] : chunks);
    } catch (error) {
      this.#fail(error);
    }
  }

  #fail(error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code;
    this.#failure ??= `could not write ${this.location.path}: ${typeof code === 'string' ? code : error instanceof Error ? error.message : String(error)}`;
    this.#buffer = [];
    this.#bufferedBytes = 0;
  }
}

/**
 * Writes `chunks` in order with `writev` (no copy into one buffer). It may write less than asked
 * (a full disk, a signal): keep going until all is out or it throws.
 */
async function writeFully(handle: FileHandle, chunks: Uint8Array[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest);
    if (bytesWritten <= 0) throw new Error('write made no progress');
    let written = bytesWritten;
    let index = 0;
    while (index < rest.length && written >= rest[index]!.length) written -= rest[index++]!.length;
    rest = rest.slice(index);
    if (written > 0) rest[0] = rest[0]!.subarray(written);
  }
}
