import { StringDecoder } from 'node:string_decoder';
import { PROGRESS_BURST_BYTES, PROGRESS_BYTES_PER_SECOND } from './capture-limits.js';

/** One live update of a stream: text, and how many bytes of it were left out just before it. */
export interface RateLimitedProgress {
  readonly text: string;
  readonly skippedBytes: number;
}

/**
 * The live-progress budget of one stream (§8.3: progress is best effort): a token bucket of
 * `burstBytes` refilled at `bytesPerSecond`. A chunk that fits is decoded and reported; one that
 * does not is dropped undecoded and counted, and the next reported chunk says how many bytes were
 * left out. Decoding is a streaming UTF-8 decoder, restarted after a gap so that a character cut
 * by the gap is dropped rather than shown as garbage.
 */
export class ProgressRateLimit {
  readonly #bytesPerSecond: number;
  readonly #burstBytes: number;
  #tokens: number;
  #refilledAt: number;
  #decoder = new StringDecoder('utf8');
  #skippedBytes = 0;
  #afterGap = false;

  constructor(now: number, bytesPerSecond = PROGRESS_BYTES_PER_SECOND, burstBytes = PROGRESS_BURST_BYTES) {
    this.#bytesPerSecond = bytesPerSecond;
    this.#burstBytes = burstBytes;
    this.#tokens = burstBytes;
    this.#refilledAt = now;
  }

  /** The update for `chunk` arriving at `now` (ms), or `undefined` when there is nothing to report. */
  accept(chunk: Buffer, now: number): RateLimitedProgress | undefined {
    this.#tokens = Math.min(this.#burstBytes, this.#tokens + ((now - this.#refilledAt) * this.#bytesPerSecond) / 1000);
    this.#refilledAt = now;
    if (chunk.length > this.#tokens) {
      this.#skippedBytes += chunk.length;
      this.#afterGap = true;
      return undefined;
    }
    this.#tokens -= chunk.length;
    let bytes = chunk;
    if (this.#afterGap) {
      this.#afterGap = false;
      this.#decoder = new StringDecoder('utf8');
      let start = 0;
      while (start < 3 && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
      bytes = bytes.subarray(start);
    }
    return this.#update(this.#decoder.write(bytes));
  }

  /** The rest at the end of the stream: a character still in the decoder, or a final gap. */
  end(): RateLimitedProgress | undefined {
    return this.#update(this.#afterGap ? '' : this.#decoder.end());
  }

  #update(text: string): RateLimitedProgress | undefined {
    const skippedBytes = this.#skippedBytes;
    if (text.length === 0 && skippedBytes === 0) return undefined;
    this.#skippedBytes = 0;
    return { text, skippedBytes };
  }
}
