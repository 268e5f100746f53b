import { CAPTURE_HEAD_BYTES, CAPTURE_TAIL_BYTES, MAX_SPILL_BYTES } from './capture-limits.js';
import type { SpillRecord } from './process-outcome.js';
import type { SpillTarget } from './process-backend.js';
import { SpillFile } from './spill-file.js';

export interface BoundedCaptureOptions {
  /** Where to spill once the output passes head + tail bytes; without it long output is cut but not saved. */
  readonly spill?: SpillTarget;
  /** Cap of the spill file (§8.2); smaller values only for tests. */
  readonly maxSpillBytes?: number;
}

/** The model-visible text of a capture and the facts behind it. */
export interface CapturedOutput {
  readonly text: string;
  readonly totalBytes: number;
  readonly omittedBytes: number;
  readonly spill?: SpillRecord;
  readonly spillError?: string;
}

/**
 * The merged output of one process, bounded (§7.9, §8.2): memory holds the first 2 KiB and the
 * last 14 KiB (a ring buffer) whatever the output size; once the total passes 16 KiB the full
 * output streams to a spill file that is created only then.
 */
export class BoundedCapture {
  readonly #head = Buffer.allocUnsafe(CAPTURE_HEAD_BYTES);
  #headLength = 0;
  readonly #tail = Buffer.allocUnsafe(CAPTURE_TAIL_BYTES);
  /** Next write position in the ring; when `#tailLength` is below capacity the data is `[0, #tailLength)`. */
  #tailWrite = 0;
  #tailLength = 0;
  #totalBytes = 0;
  readonly #spillTarget: SpillTarget | undefined;
  readonly #maxSpillBytes: number;
  #spill: SpillFile | undefined;
  #closed = false;

  constructor(options: BoundedCaptureOptions = {}) {
    this.#spillTarget = options.spill;
    this.#maxSpillBytes = options.maxSpillBytes ?? MAX_SPILL_BYTES;
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** True while the spill file is behind; the reader should pause until `whenDrained` resolves. */
  get needsBackpressure(): boolean {
    return this.#spill?.needsBackpressure ?? false;
  }

  whenDrained(): Promise<void> {
    return this.#spill?.whenDrained() ?? Promise.resolve();
  }

  /** Appends one chunk of merged output. The chunk is kept by reference for the spill file: do not reuse it. */
  push(chunk: Buffer): void {
    if (this.#closed || chunk.length === 0) return;
    this.#totalBytes += chunk.length;
    let rest = chunk;
    if (this.#headLength < CAPTURE_HEAD_BYTES) {
      const taken = Math.min(CAPTURE_HEAD_BYTES - this.#headLength, chunk.length);
      chunk.copy(this.#head, this.#headLength, 0, taken);
      this.#headLength += taken;
      rest = chunk.subarray(taken);
    }
    if (this.#spill === undefined && this.#spillTarget !== undefined && this.#totalBytes > CAPTURE_HEAD_BYTES + CAPTURE_TAIL_BYTES) {
      // Until now nothing was dropped: head + ring hold every byte so far, so the file gets it all (§8.2).
      this.#spill = new SpillFile(this.#spillTarget.path, this.#maxSpillBytes);
      this.#spill.write(this.#head.subarray(0, this.#headLength));
      this.#spill.write(Buffer.from(this.#tailBytes()));
    }
    if (rest.length === 0) return;
    this.#spill?.write(rest);
    this.#pushTail(rest);
  }

  /** Flushes the spill file and renders the text: all of it up to 16 KiB, else head + marker + tail (§7.9). */
  async finish(): Promise<CapturedOutput> {
    this.#closed = true;
    let spill: SpillRecord | undefined;
    let spillError: string | undefined;
    if (this.#spill !== undefined) {
      const result = await this.#spill.close();
      if ('record' in result) spill = result.record;
      else spillError = result.error;
    }
    const head = this.#head.subarray(0, this.#headLength);
    const tail = this.#tailBytes();
    if (this.#totalBytes <= CAPTURE_HEAD_BYTES + CAPTURE_TAIL_BYTES) {
      return { text: new TextDecoder().decode(Buffer.concat([head, tail])), totalBytes: this.#totalBytes, omittedBytes: 0, ...(spillError === undefined ? {} : { spillError }) };
    }
    const shownHead = head.subarray(0, completeCharactersEnd(head));
    const shownTail = tail.subarray(leadingContinuationBytes(tail));
    // The count covers every byte not shown, including a character split by the cut.
    const omittedBytes = this.#totalBytes - shownHead.length - shownTail.length;
    const decoder = new TextDecoder();
    const text = decoder.decode(shownHead) + omittedBytesMarker(omittedBytes, spill, this.#spillTarget) + decoder.decode(shownTail);
    return {
      text,
      totalBytes: this.#totalBytes,
      omittedBytes,
      ...(spill === undefined ? {} : { spill }),
      ...(spillError === undefined ? {} : { spillError }),
    };
  }

  /** The capture will not be used: delete the partial spill file (§8.2 "执行失败时删除已写的部分"). */
  async abandon(): Promise<void> {
    this.#closed = true;
    await this.#spill?.discard();
  }

  #pushTail(bytes: Buffer): void {
    const capacity = CAPTURE_TAIL_BYTES;
    if (bytes.length >= capacity) {
      bytes.copy(this.#tail, 0, bytes.length - capacity);
      this.#tailWrite = 0;
      this.#tailLength = capacity;
      return;
    }
    const first = Math.min(bytes.length, capacity - this.#tailWrite);
    bytes.copy(this.#tail, this.#tailWrite, 0, first);
    if (first < bytes.length) bytes.copy(this.#tail, 0, first);
    this.#tailWrite = (this.#tailWrite + bytes.length) % capacity;
    this.#tailLength = Math.min(capacity, this.#tailLength + bytes.length);
  }

  /** The ring's bytes in order. A view when it has not wrapped, otherwise a fresh copy. */
  #tailBytes(): Buffer {
    if (this.#tailLength < CAPTURE_TAIL_BYTES) return this.#tail.subarray(0, this.#tailLength);
    return Buffer.concat([this.#tail.subarray(this.#tailWrite), this.#tail.subarray(0, this.#tailWrite)]);
  }
}

/**
 * `\n... (N bytes omitted. Full output saved at <path> — use read with offset/limit, or grep, to
 * look at it.)\n` (§7.9). A capped spill says only the first part was saved (§8.2); without a
 * spill file no path is named (§8.2 "结果不给出读不到的路径").
 */
function omittedBytesMarker(omittedBytes: number, spill: SpillRecord | undefined, target: SpillTarget | undefined): string {
  if (spill === undefined) return `\n... (${omittedBytes} bytes omitted.)\n`;
  const shown = target?.displayPath ?? spill.path;
  const hint = 'use read with offset/limit, or grep, to look at it.';
  if (spill.truncated) {
    return `\n... (${omittedBytes} bytes omitted. Only the first ${formatSize(spill.bytesWritten)} of the output were saved at ${shown} — ${hint})\n`;
  }
  return `\n... (${omittedBytes} bytes omitted. Full output saved at ${shown} — ${hint})\n`;
}

function formatSize(bytes: number): string {
  const mebibyte = 1024 * 1024;
  if (bytes >= mebibyte && bytes % mebibyte === 0) return `${bytes / mebibyte} MiB`;
  return `${bytes} bytes`;
}

/** End of the longest prefix that does not stop inside a UTF-8 character. */
function completeCharactersEnd(bytes: Buffer): number {
  const length = bytes.length;
  for (let back = 1; back <= Math.min(4, length); back++) {
    const byte = bytes[length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const expected = byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 1;
    return expected > back ? length - back : length;
  }
  return length;
}

/** Continuation bytes at the start of a cut tail: the rest of a character whose lead byte was omitted. */
function leadingContinuationBytes(bytes: Buffer): number {
  let count = 0;
  while (count < 3 && count < bytes.length && ((bytes[count] ?? 0) & 0xc0) === 0x80) count++;
  return count;
}
