import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { cutOversizedResult } from './cut-oversized-result.js';
import {
  defineTool,
  FOOTER_RESERVE_BYTES,
  MAX_RESULT_BYTES,
  MAX_SPILL_BYTES,
  type SpillSink,
  ToolExecutionError,
  ToolRegistryBuilder,
  ToolResult,
} from './index.js';
import { callContext } from './test-support/call-context.js';
import { MemorySpillSink } from './test-support/memory-spill-sink.js';

const encoder = new TextEncoder();
const bytesOf = (text: string): number => encoder.encode(text).length;
const BUDGET = MAX_RESULT_BYTES - FOOTER_RESERVE_BYTES;
const FOOTER = /\.\.\. \((\d+) bytes omitted\. (?:Full output saved at (.+) — use read with offset\/limit, or grep, to look at it\.|The full output was not saved; narrow the request to see the rest\.)\)$/;

/** A toolset whose one tool echoes `text` back (or fails with it). */
function echo(spill: SpillSink | undefined) {
  const tool = defineTool({
    id: 'echo',
    description: 'Echo.',
    risk: 'read_only',
    inputSchema: z.object({ text: z.string(), fail: z.boolean().default(false) }),
    execute: (input) => (input.fail ? new ToolExecutionError('execution_failed', input.text) : { text: input.text, artifacts: [{ kind: 'note' }] }),
  });
  return new ToolRegistryBuilder().register(tool).finalize({ tools: ['echo'] }, undefined, spill === undefined ? {} : { spill });
}

/** The kept text (ending with the newline before the footer), the omitted byte count and the path. */
function split(text: string): { kept: string; omitted: number; path: string | undefined } {
  const match = FOOTER.exec(text);
  if (match === null) throw new Error(`no footer in …${text.slice(-300)}`);
  const kept = text.slice(0, match.index);
  expect(kept.endsWith('\n')).toBe(true);
  return { kept, omitted: Number(match[1]), path: match[2] };
}

/** Compares long texts without printing them whole on failure. */
function expectSameText(actual: string, expected: string): void {
  if (actual === expected) return;
  let index = 0;
  while (index < Math.min(actual.length, expected.length) && actual[index] === expected[index]) index++;
  throw new Error(
    `texts differ at ${index} (lengths ${actual.length} and ${expected.length}): ` +
      `${JSON.stringify(actual.slice(index, index + 40))} vs ${JSON.stringify(expected.slice(index, index + 40))}`,
  );
}

/** An independent, code-point-by-code-point statement of the §8.2 cut rule, for the property test. */
function referencePrefix(text: string, budget: number): string {
  let bytes = 0;
  let boundary = '';
  let lastNewline: string | undefined;
  let prefix = '';
  for (const character of text) {
    const size = bytesOf(character);
    if (bytes + size > budget) break;
    bytes += size;
    prefix += character;
    boundary = prefix;
    if (character === '\n' && bytes - 1 >= Math.ceil(budget / 2)) lastNewline = prefix;
  }
  return lastNewline ?? boundary;
}

/** The part of the original text `kept` stands for: the separator newline before the footer may be added. */
function originalPrefix(text: string, kept: string, omitted: number): string {
  const size = bytesOf(text);
  const candidates = [kept, kept.slice(0, -1)].filter((prefix) => text.startsWith(prefix) && bytesOf(prefix) + omitted === size);
  if (candidates.length === 0) throw new Error(`kept text (${bytesOf(kept)} bytes) + ${omitted} omitted is not a prefix of ${size} bytes`);
  return candidates[0]!;
}

describe('the fallback cut of §8.2', () => {
  it('oversized_results_are_cut_at_the_end_and_saved', async () => {
    const sink = new MemorySpillSink();
    const lines = Array.from({ length: 400 }, (_, index) => `line ${String(index).padStart(4, '0')} ${'x'.repeat(90)}`);
    const full = `${lines.join('\n')}\n`;
    const result = await echo(sink).call('echo', { text: full }, callContext({ callId: 'toolu_01/../x' }));
    const text = ToolResult.text(result);

    expect(result.status).toBe('succeeded');
    expect(result.artifacts).toEqual([{ kind: 'note' }]);
    expect(bytesOf(text)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    // The sink got the raw call ID and the whole text; the model sees the start and where the rest is.
    expect(sink.saved.get('toolu_01/../x')).toBe(full);
    const { kept, omitted, path } = split(text);
    expect(path).toBe('~/.openwork/spill/session_1/toolu_01/../x.txt');
    expect(full.startsWith(kept)).toBe(true);
    expect(omitted).toBe(bytesOf(full) - bytesOf(kept));
    expectSameText(
      text,
      `${kept}... (${omitted} bytes omitted. Full output saved at ${path} — use read with offset/limit, or grep, to look at it.)`,
    );
    // Whole lines are kept, up to the 512-byte footer reserve.
    expect(bytesOf(kept)).toBeLessThanOrEqual(BUDGET);
    expect(bytesOf(kept)).toBeGreaterThan(BUDGET - 100);
  });

  it('failed_spill_omits_the_path', async () => {
    const full = 'y'.repeat(50_000);
    for (const spill of [new MemorySpillSink({ fail: new Error('ENOSPC: no space left on device') }), undefined]) {
      const result = await echo(spill).call('echo', { text: full }, callContext());
      const text = ToolResult.text(result);
      expect(result.status).toBe('succeeded');
      expect(bytesOf(text)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      expect(text).not.toContain('saved at');
      expect(text).not.toContain('.openwork');
      expectSameText(text, `${'y'.repeat(BUDGET)}\n... (${50_000 - BUDGET} bytes omitted. The full output was not saved; narrow the request to see the rest.)`);
    }
    // A sink that resolves to no usable path counts as a failed save.
    const blank = await echo({ save: async () => '  ' }).call('echo', { text: full }, callContext());
    expect(ToolResult.text(blank)).toContain('The full output was not saved');
  });

  it('results of exactly 32,000 bytes are untouched; one byte more is cut', async () => {
    const toolset = echo(new MemorySpillSink());
    const exact = 'é'.repeat(16_000);
    expect(bytesOf(exact)).toBe(MAX_RESULT_BYTES);
    expectSameText(ToolResult.text(await toolset.call('echo', { text: exact }, callContext())), exact);
    const over = `${exact}a`;
    const cut = ToolResult.text(await toolset.call('echo', { text: over }, callContext()));
    expect(cut === over).toBe(false);
    expect(bytesOf(cut)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
  });

  it('stops at the last newline in the second half of the budget, else at a character boundary', async () => {
    const toolset = echo(undefined);
    // A newline in the second half: cut right after it.
    const withLateNewline = `${'a'.repeat(20_000)}\n${'b'.repeat(30_000)}`;
    expectSameText(split(ToolResult.text(await toolset.call('echo', { text: withLateNewline }, callContext()))).kept, `${'a'.repeat(20_000)}\n`);
    // Only a newline in the first half: it is ignored, the cut fills the budget.
    const withEarlyNewline = `${'a'.repeat(10_000)}\n${'b'.repeat(40_000)}`;
    const early = split(ToolResult.text(await toolset.call('echo', { text: withEarlyNewline }, callContext())));
    expect(bytesOf(early.kept)).toBe(BUDGET + 1);
    expectSameText(early.kept, `${withEarlyNewline.slice(0, BUDGET)}\n`);
    // The last newline inside the budget wins over earlier ones; one just past the budget does not count.
    const several = `${'a'.repeat(17_000)}\n${'b'.repeat(10_000)}\n${'c'.repeat(BUDGET - 27_002)}\n${'d'.repeat(10_000)}`;
    expectSameText(
      split(ToolResult.text(await toolset.call('echo', { text: several }, callContext()))).kept,
      `${'a'.repeat(17_000)}\n${'b'.repeat(10_000)}\n`,
    );
  });

  it('never splits a multibyte character', async () => {
    const toolset = echo(undefined);
    for (const character of ['é', '€', '😀']) {
      for (const shift of [0, 1, 2, 3]) {
        const text = 'a'.repeat(shift) + character.repeat(Math.ceil(40_000 / bytesOf(character)));
        const result = ToolResult.text(await toolset.call('echo', { text }, callContext()));
        const { kept, omitted } = split(result);
        expect(kept.includes('\uFFFD')).toBe(false);
        const prefix = originalPrefix(text, kept, omitted);
        expect(bytesOf(prefix)).toBeGreaterThan(BUDGET - 4);
        expect(bytesOf(result)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      }
    }
  });

  it('never exceeds 32,000 bytes, keeps a prefix and counts the omitted bytes exactly (property)', async () => {
    const sink = new MemorySpillSink();
    const toolset = echo(sink);
    const piece = fc.oneof(fc.constantFrom('\n', 'a', 'é', '€', '😀', '\r\n'), fc.string({ unit: 'grapheme', maxLength: 40 }));
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 60 }), fc.integer({ min: 500, max: 2_000 }), async (pieces, repeat) => {
        const text = pieces.join('').repeat(repeat);
        const result = ToolResult.text(await toolset.call('echo', { text }, callContext({ callId: 'p' })));
        const size = bytesOf(text);
        expect(bytesOf(result)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
        if (size <= MAX_RESULT_BYTES) {
          expectSameText(result, text);
          return;
        }
        const { kept, omitted, path } = split(result);
        const prefix = originalPrefix(text, kept, omitted);
        // Either whole lines up to the last newline in the second half of the budget, or the budget filled to a character boundary.
        expectSameText(prefix, referencePrefix(text, BUDGET));
        expect(path).toBe('~/.openwork/spill/session_1/p.txt');
        expect(sink.saved.get('p') === text).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('a failed result stays failed and its error message is the cut text', async () => {
    const result = await echo(new MemorySpillSink()).call('echo', { text: 'z'.repeat(40_000), fail: true }, callContext());
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('execution_failed');
    expect(result.error?.message).toBe(ToolResult.text(result));
    expect(bytesOf(ToolResult.text(result))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
  });

  it('a long spill path takes more of the budget instead of breaking the bound; an absurd one is left out', async () => {
    const longPath = `~/.openwork/spill/${'s'.repeat(900)}/call.txt`;
    const long = ToolResult.text(await echo({ save: async () => longPath }).call('echo', { text: 'w'.repeat(60_000) }, callContext()));
    expect(bytesOf(long)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(long).toContain(longPath);

    const absurd = `/${'s'.repeat(20_000)}`;
    const dropped = ToolResult.text(await echo({ save: async () => absurd }).call('echo', { text: 'w'.repeat(60_000) }, callContext()));
    expect(bytesOf(dropped)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(dropped).not.toContain(absurd);
    expect(dropped).toContain('The full output was not saved');
  });

  it('saves only the first MAX_SPILL_BYTES and says so (small limits)', async () => {
    const sink = new MemorySpillSink();
    const limits = { maxResultBytes: 2_000, footerReserveBytes: 256, maxSpillBytes: 5_000 };
    const text = '€'.repeat(3_000);
    const result = await cutOversizedResult(ToolResult.success(text), 'c', sink, limits);
    const saved = sink.saved.get('c') ?? '';
    expect(bytesOf(saved)).toBe(4_998);
    expect(text.startsWith(saved)).toBe(true);
    const output = ToolResult.text(result);
    expect(bytesOf(output)).toBeLessThanOrEqual(2_000);
    expect(output).toMatch(/\n\.\.\. \(\d+ bytes omitted\. Only the first 5000 bytes of the output were saved at ~\/\.openwork\/spill\/session_1\/c\.txt — use read/);
  });

  it('a result over 64 MiB says what bash says for a capped spill: "Only the first 64 MiB of the output were saved at"', async () => {
    const sink = new MemorySpillSink();
    const text = 'x'.repeat(MAX_SPILL_BYTES + 1_000);
    const output = ToolResult.text(await cutOversizedResult(ToolResult.success(text), 'c', sink));
    expect(bytesOf(sink.saved.get('c') ?? '')).toBe(MAX_SPILL_BYTES);
    expect(output.endsWith(
      'bytes omitted. Only the first 64 MiB of the output were saved at ~/.openwork/spill/session_1/c.txt — use read with offset/limit, or grep, to look at it.)',
    )).toBe(true);
  });

  it('a short result is returned as it is', async () => {
    const result = ToolResult.success('short');
    expect(await cutOversizedResult(result, 'c', new MemorySpillSink())).toBe(result);
  });
});
