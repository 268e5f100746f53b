const NEWLINE_WORD = 0x0a0a0a0a;

/**
 * The number of `\n` bytes in `bytes[from, to)`, four bytes at a time (a line number is needed
 * only for a matching line, §7.6 speed: "offsets → line numbers only for matches"). Each 32-bit
 * word XOR `\n\n\n\n` has a zero byte where a `\n` was; the classic exact zero-byte test marks
 * those bytes, and up to 255 words are summed per byte lane before folding.
 */
export function countNewlines(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  let index = from;
  while (index < to && ((bytes.byteOffset + index) & 3) !== 0) {
    if (bytes[index] === 10) count += 1;
    index += 1;
  }
  const wordCount = (to - index) >>> 2;
  if (wordCount > 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + index, wordCount);
    let word = 0;
    while (word < wordCount) {
      const stop = Math.min(wordCount, word + 255);
      let lanes = 0;
      for (; word < stop; word += 1) {
        const value = words[word]! ^ NEWLINE_WORD;
        lanes += (~(((value & 0x7f7f7f7f) + 0x7f7f7f7f) | value) & 0x80808080) >>> 7;
      }
      count += (lanes & 0xff) + ((lanes >>> 8) & 0xff) + ((lanes >>> 16) & 0xff) + (lanes >>> 24);
    }
    index += wordCount * 4;
  }
  for (; index < to; index += 1) if (bytes[index] === 10) count += 1;
  return count;
}
