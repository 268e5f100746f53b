import { isUtf8 } from 'node:buffer';

/** Length of the sequence a lead byte starts (1 for ASCII or a stray continuation byte). */
function sequenceLength(leadByte: number): number {
  if (leadByte >= 0xf0) return 4;
  if (leadByte >= 0xe0) return 3;
  if (leadByte >= 0xc0) return 2;
  return 1;
}

/**
 * Validates UTF-8 fed in arbitrary pieces (a line split across read chunks), using the native
 * `isUtf8` on each piece and carrying at most 3 bytes of a character split between pieces.
 * Internal to the line reader.
 */
export class Utf8Validator {
  #valid = true;
  readonly #carry = Buffer.alloc(4);
  #carryLength = 0;
  #carryNeeded = 0;

  push(piece: Uint8Array): void {
    if (!this.#valid || piece.length === 0) return;
    let start = 0;
    if (this.#carryLength > 0) {
      const take = Math.min(this.#carryNeeded - this.#carryLength, piece.length);
      this.#carry.set(piece.subarray(0, take), this.#carryLength);
      this.#carryLength += take;
      start = take;
      if (this.#carryLength < this.#carryNeeded) return;
      if (!isUtf8(this.#carry.subarray(0, this.#carryLength))) {
        this.#valid = false;
        return;
      }
      this.#carryLength = 0;
    }
    const end = piece.length;
    let tail = end;
    for (let index = end - 1; index >= start && index >= end - 3; index -= 1) {
      const byte = piece[index] as number;
      if ((byte & 0xc0) === 0x80) continue;
      if (byte >= 0xc0 && end - index < sequenceLength(byte)) tail = index;
      break;
    }
    if (!isUtf8(piece.subarray(start, tail))) {
      this.#valid = false;
      return;
    }
    if (tail < end) {
      this.#carryNeeded = sequenceLength(piece[tail] as number);
      this.#carry.set(piece.subarray(tail, end), 0);
      this.#carryLength = end - tail;
    }
  }

  /** Whether everything pushed so far is valid, with no character left unfinished. */
  get isValid(): boolean {
    return this.#valid && this.#carryLength === 0;
  }

  reset(): void {
    this.#valid = true;
    this.#carryLength = 0;
    this.#carryNeeded = 0;
  }
}

/**
 * End of the longest prefix of `bytes` that does not stop inside a character, so a line cut at
 * `maxLineBytes` decodes without a trailing U+FFFD the file does not have.
 */
export function wholeCharacterEnd(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let index = end - 1; index >= 0 && index >= end - 3; index -= 1) {
    const byte = bytes[index] as number;
    if ((byte & 0xc0) === 0x80) continue;
    return byte >= 0xc0 && end - index < sequenceLength(byte) ? index : end;
  }
  return end;
}
