import { FOOTER_RESERVE_BYTES, MAX_RESULT_BYTES, MAX_SPILL_BYTES } from './result-limits.js';
import type { SpillSink } from './spill-sink.js';
import { ToolResult } from './tool-result.js';

/** The bounds of the fallback cut; the defaults are §9's, smaller ones only exist for tests. */
export interface ResultLimits {
  readonly maxResultBytes: number;
  readonly footerReserveBytes: number;
  readonly maxSpillBytes: number;
}

const DEFAULT_LIMITS: ResultLimits = {
  maxResultBytes: MAX_RESULT_BYTES,
  footerReserveBytes: FOOTER_RESERVE_BYTES,
  maxSpillBytes: MAX_SPILL_BYTES,
};

const NEWLINE = 0x0a;

/**
 * The fallback cut of §8.2, applied to every result of `FinalizedToolset.call`: text over 32,000
 * UTF-8 bytes keeps only its beginning — up to the last newline in the second half of the budget,
 * else up to a character boundary — and ends with a footer saying how many bytes were omitted and,
 * when the sink saved the whole text, where it is. The footer's 512 bytes come out of the same
 * budget (§9), so the returned text never exceeds 32,000 bytes. Never throws: a failing sink only
 * takes the path out of the footer.
 */
export async function cutOversizedResult(
  result: ToolResult,
  callId: string,
  sink: SpillSink | undefined,
  limits: ResultLimits = DEFAULT_LIMITS,
): Promise<ToolResult> {
  const text = ToolResult.text(result);
  // A UTF-8 byte never exceeds 3 bytes per UTF-16 unit: short texts need no encoding at all.
  if (text.length * 3 <= limits.maxResultBytes) return result;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limits.maxResultBytes) return result;

  const savedLength = bytes.length > limits.maxSpillBytes ? characterBoundary(bytes, limits.maxSpillBytes) : bytes.length;
  const partial = savedLength < bytes.length;
  const path = sink === undefined ? undefined : await save(sink, callId, partial ? decode(bytes, savedLength) : text);

  let footer = (omitted: number): string => footerText(omitted, path, partial, limits.maxSpillBytes);
  // The footer takes its 512 reserved bytes, or more if an unusually long path needs them; a path
  // that would eat half the budget is left out rather than crowding out the result.
  let reserve = Math.max(limits.footerReserveBytes, byteLength(footer(bytes.length)) + 1);
  if (reserve > limits.maxResultBytes / 2) {
    footer = (omitted) => footerText(omitted, undefined, partial, limits.maxSpillBytes);
    reserve = Math.max(limits.footerReserveBytes, byteLength(footer(bytes.length)) + 1);
  }
  const budget = limits.maxResultBytes - reserve;

  const newline = bytes.lastIndexOf(NEWLINE, budget - 1);
  const keptLength = newline >= Math.ceil(budget / 2) ? newline + 1 : characterBoundary(bytes, budget);
  const kept = decode(bytes, keptLength);
  const cut = `${kept}${kept.endsWith('\n') ? '' : '\n'}${footer(bytes.length - keptLength)}`;

  // §8.2 cuts text only: image parts keep their own bound (`boundResultImages`).
  const extras = { images: ToolResult.images(result), artifacts: result.artifacts, sandboxDenied: result.sandboxDenied };
  return result.error === null
    ? ToolResult.success(cut, extras)
    : ToolResult.failure({ code: result.error.code, message: cut, retryable: result.error.retryable }, extras);
}

function footerText(omitted: number, path: string | undefined, partial: boolean, maxSpillBytes: number): string {
  if (path === undefined) return `... (${omitted} bytes omitted. The full output was not saved; narrow the request to see the rest.)`;
  // The same words as the process backend's capped spill (`@openwork/process-backend`).
  const saved = partial ? `Only the first ${formatSize(maxSpillBytes)} of the output were saved at` : 'Full output saved at';
  return `... (${omitted} bytes omitted. ${saved} ${path} — use read with offset/limit, or grep, to look at it.)`;
}

async function save(sink: SpillSink, callId: string, text: string): Promise<string | undefined> {
  try {
    const path: unknown = await sink.save(callId, text);
    return typeof path === 'string' && path.trim() !== '' ? path : undefined;
  } catch {
    // §8.2: a failed spill still returns the result, without a path to a file that does not exist.
    return undefined;
  }
}

/** The largest length ≤ `limit` that does not end inside a multibyte UTF-8 character. */
function characterBoundary(bytes: Uint8Array, limit: number): number {
  let length = Math.min(limit, bytes.length);
  while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;
  return length;
}

function decode(bytes: Uint8Array, length: number): string {
  return new TextDecoder().decode(bytes.subarray(0, length));
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

function formatSize(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
