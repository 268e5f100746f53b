/** Size of each content the crash test alternates between: large enough that a kill lands mid-write. */
export const crashTestContentBytes = 8 * 1024 * 1024;

/**
 * Deterministic pseudo-random content `A` or `B` (xorshift32), the same in the test and in the
 * child process, so both sides know the two valid hashes.
 */
export function crashTestContent(which: 'A' | 'B'): Buffer {
  const words = new Uint32Array(crashTestContentBytes / 4);
  let state = which === 'A' ? 0x9e3779b9 : 0x85ebca6b;
  for (let index = 0; index < words.length; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    words[index] = state;
  }
  return Buffer.from(words.buffer);
}
