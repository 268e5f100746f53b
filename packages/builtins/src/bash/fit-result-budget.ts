import { MAX_RESULT_BYTES } from '@openwork/tools-contract';

const encoder = new TextEncoder();

/**
 * bash's text must stay within the 32,000 bytes of §8.2 by itself: the fallback cut of
 * `FinalizedToolset.call` would otherwise save the text under this call's spill name — over the
 * full output bash already spilled there. Head and tail are 16 KiB of output bytes, but bytes that
 * are not UTF-8 each decode to U+FFFD (3 bytes), so binary output can triple; then those
 * characters become `?` (at most one byte per byte read). The status line and what follows it
 * (`trailer`) are kept whole; a trailer that alone is too long (a denial marker quoting many long
 * paths) is cut at a character.
 */
export function fitResultBudget(output: string, trailer: string, budget = MAX_RESULT_BYTES): string {
  const text = joinLines(output, trailer);
  if (text.length * 3 <= budget || encoder.encode(text).length <= budget) return text;
  const narrowed = joinLines(output.replaceAll('\uFFFD', '?'), trailer);
  if (encoder.encode(narrowed).length <= budget) return narrowed;
  const room = budget - encoder.encode(joinLines(output.replaceAll('\uFFFD', '?'), '')).length - 4;
  return joinLines(output.replaceAll('\uFFFD', '?'), `${cutToBytes(trailer, Math.max(0, room))}…`);
}

/** The output, then the trailer on a line of its own (§7.9 "输出之后追加一行状态"). */
export function joinLines(output: string, trailer: string): string {
  if (output === '') return trailer;
  if (trailer === '') return output;
  return output.endsWith('\n') ? `${output}${trailer}` : `${output}\n${trailer}`;
}

function cutToBytes(text: string, limit: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    const size = encoder.encode(character).length;
    if (bytes + size > limit) break;
    bytes += size;
    end += character.length;
  }
  return text.slice(0, end);
}
