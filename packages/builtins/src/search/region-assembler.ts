import { TextDecoder } from 'node:util';
import { BINARY_PROBE_BYTES, MAX_SEARCH_LINE_BYTES } from './search-limits.js';

/** How the bytes of one file ended up. */
export type RegionOutcome = 'searched' | 'binary' | 'long-line';

/**
 * Turns the chunks of one file into regions of whole lines for a `FileScan` (§7.6): a NUL byte in
 * the first 64 KiB makes the file binary (nothing of it is searched); a later NUL ends the search
 * there, the partial line before it included; a line longer than 64 MiB skips the file (for files
 * that large the caller probes first with `LongLineProbe`, so this is a guard). Chunks may be
 * reused by the caller after `push` returns: only the unfinished last line is copied.
 *
 * Byte order marks are sniffed as grep-searcher does by default (and so ripgrep): a UTF-8 BOM is
 * dropped, so `^` matches the first line's first character; a file that starts with a UTF-16 BOM
 * (`FF FE`, `FE FF`) is searched as its UTF-8 transcoding (unpaired surrogates become U+FFFD), the
 * NUL test applying to the transcoded text, so such a file is text, not binary.
 */
export class RegionAssembler {
  readonly #scan: (region: Buffer, last: boolean) => boolean;
  #sniffed = false;
  #decoder: TextDecoder | undefined;
  #carry: Buffer | undefined;
  #seen = 0;
  #outcome: RegionOutcome = 'searched';
  #finished = false;

  /** `scan` is told when a region is the file's last (content mode then counts no line ends after the last match). */
  constructor(scan: (region: Buffer, last: boolean) => boolean) {
    this.#scan = scan;
  }

  get outcome(): RegionOutcome {
    return this.#outcome;
  }

  /** Feeds the next chunk; `false` when no more chunks are wanted. */
  push(bytes: Buffer): boolean {
    if (this.#finished) return false;
    const chunk = this.#decoded(bytes, false);
    const nul = chunk.indexOf(0);
    if (nul >= 0) {
      if (this.#seen + nul < BINARY_PROBE_BYTES) return this.#end('binary');
      this.#seen += nul;
      this.#emit(this.#joined(chunk.subarray(0, nul)), true);
      return this.#end('searched');
    }
    this.#seen += chunk.length;
    const data = this.#joined(chunk);
    const lastNewline = data.lastIndexOf(10);
    if (lastNewline < 0) {
      if (data.length > MAX_SEARCH_LINE_BYTES) return this.#end('long-line');
      this.#carry = data === chunk ? Buffer.from(data) : data;
      return true;
    }
    const rest = data.subarray(lastNewline + 1);
    if (rest.length > MAX_SEARCH_LINE_BYTES) return this.#end('long-line');
    this.#carry = rest.length === 0 ? undefined : Buffer.from(rest);
    if (!this.#emit(data.subarray(0, lastNewline + 1))) return this.#end('searched');
    return true;
  }

  /** The whole file in one buffer: one region, nothing copied. */
  pushWhole(whole: Buffer): void {
    const bytes = this.#decoded(whole, true);
    const nul = bytes.indexOf(0);
    if (nul >= 0 && nul < BINARY_PROBE_BYTES) {
      this.#end('binary');
      return;
    }
    this.#emit(nul >= 0 ? bytes.subarray(0, nul) : bytes, true);
    this.#end('searched');
  }

  /** No more chunks: the last line, if it had no `\n`, is searched too. */
  end(): void {
    if (this.#finished) return;
    const rest = this.#decoder === undefined ? undefined : Buffer.from(this.#decoder.decode(), 'utf8');
    const carry = rest === undefined || rest.length === 0 ? this.#carry : this.#joined(rest);
    this.#carry = undefined;
    if (carry !== undefined) this.#emit(carry, true);
    this.#end('searched');
  }

  /** The bytes to search: the BOM sniffed on the first chunk, UTF-16 transcoded to UTF-8. */
  #decoded(bytes: Buffer, final: boolean): Buffer {
    let chunk = bytes;
    if (!this.#sniffed) {
      this.#sniffed = true;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
      else if (chunk[0] === 0xff && chunk[1] === 0xfe) this.#decoder = new TextDecoder('utf-16le');
      else if (chunk[0] === 0xfe && chunk[1] === 0xff) this.#decoder = new TextDecoder('utf-16be');
      if (this.#decoder !== undefined) chunk = chunk.subarray(2);
    }
    if (this.#decoder === undefined) return chunk;
    return Buffer.from(this.#decoder.decode(chunk, { stream: !final }), 'utf8');
  }

  #joined(chunk: Buffer): Buffer {
    const carry = this.#carry;
    this.#carry = undefined;
    return carry === undefined ? chunk : Buffer.concat([carry, chunk]);
  }

  #emit(region: Buffer, last = false): boolean {
    return region.length === 0 ? true : this.#scan(region, last);
  }

  #end(outcome: RegionOutcome): false {
    this.#finished = true;
    this.#carry = undefined;
    if (this.#outcome === 'searched') this.#outcome = outcome;
    return false;
  }
}

/**
 * Finds a line longer than 64 MiB (§7.6: such a file is skipped whole) before a file larger than
 * that is searched: results already counted could not be taken back. Chunks are much shorter than
 * 64 MiB, so only a line that spans chunks can be that long: two native calls per chunk.
 */
export class LongLineProbe {
  #lineBytes = 0;
  #found = false;

  get found(): boolean {
    return this.#found;
  }

  /** `false` once a long line is found (no need to read further). */
  push(chunk: Buffer): boolean {
    const first = chunk.indexOf(10);
    if (first < 0) {
      this.#lineBytes += chunk.length;
    } else {
      if (this.#lineBytes + first > MAX_SEARCH_LINE_BYTES) this.#found = true;
      this.#lineBytes = chunk.length - chunk.lastIndexOf(10) - 1;
    }
    if (this.#lineBytes > MAX_SEARCH_LINE_BYTES) this.#found = true;
    return !this.#found;
  }
}
