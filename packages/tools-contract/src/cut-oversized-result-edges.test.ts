import { describe, expect, it } from 'vitest';
import { cutOversizedResult, type ResultLimits } from './cut-oversized-result.js';
import { ToolResult, type SpillSink } from './index.js';
import { MemorySpillSink } from './test-support/memory-spill-sink.js';

const encoder = new TextEncoder();
const bytesOf = (text: string): number => encoder.encode(text).length;
/** Small limits, so each boundary can be put exactly where a test wants it. */
const limits: ResultLimits = { maxResultBytes: 2_000, footerReserveBytes: 200, maxSpillBytes: 100_000 };
const budget = limits.maxResultBytes - limits.footerReserveBytes; // 1,800
const notSaved = (omitted: number) => `... (${omitted} bytes omitted. The full output was not saved; narrow the request to see the rest.)`;

describe('the fallback cut of §8.2 at its exact boundaries', () => {
  it('a newline exactly at the middle of the budget counts; one byte before it does not', async () => {
    const middle = Math.ceil(budget / 2); // 900
    const atMiddle = `${'a'.repeat(middle)}\n${'b'.repeat(3_000)}`;
    expect(ToolResult.text(await cutOversizedResult(ToolResult.success(atMiddle), 'c', undefined, limits))).toBe(
      `${'a'.repeat(middle)}\n${notSaved(bytesOf(atMiddle) - middle - 1)}`,
    );
    const beforeMiddle = `${'a'.repeat(middle - 1)}\n${'b'.repeat(3_000)}`;
    expect(ToolResult.text(await cutOversizedResult(ToolResult.success(beforeMiddle), 'c', undefined, limits))).toBe(
      `${beforeMiddle.slice(0, budget)}\n${notSaved(bytesOf(beforeMiddle) - budget)}`,
    );
  });

  it('a newline as the last byte of the budget is kept; one right after it is not', async () => {
    const last = `${'a'.repeat(budget - 1)}\n${'b'.repeat(3_000)}`;
    expect(ToolResult.text(await cutOversizedResult(ToolResult.success(last), 'c', undefined, limits))).toBe(
      `${'a'.repeat(budget - 1)}\n${notSaved(bytesOf(last) - budget)}`,
    );
    const after = `${'a'.repeat(budget)}\n${'b'.repeat(3_000)}`;
    expect(ToolResult.text(await cutOversizedResult(ToolResult.success(after), 'c', undefined, limits))).toBe(
      `${'a'.repeat(budget)}\n${notSaved(bytesOf(after) - budget)}`,
    );
  });

  it('a footer of exactly half the result keeps its path; one byte more and the path is left out', async () => {
    const text = 'w'.repeat(5_000);
    const footerFor = (path: string) => `... (${5_000 - (limits.maxResultBytes - (limits.maxResultBytes / 2))} bytes omitted. Full output saved at ${path} — use read with offset/limit, or grep, to look at it.)`;
    // The reserve is the footer plus its newline; make it exactly half of 2,000 bytes.
    const prefix = '/spill/';
    let path = prefix;
    while (bytesOf(footerFor(path)) + 1 < limits.maxResultBytes / 2) path += 'p';
    expect(bytesOf(footerFor(path)) + 1).toBe(limits.maxResultBytes / 2);
    const kept = ToolResult.text(await cutOversizedResult(ToolResult.success(text), 'c', { save: async () => path }, limits));
    expect(kept).toBe(`${'w'.repeat(limits.maxResultBytes / 2)}\n${footerFor(path)}`);
    expect(bytesOf(kept)).toBe(limits.maxResultBytes);

    const longer = `${path}p`;
    const dropped = ToolResult.text(await cutOversizedResult(ToolResult.success(text), 'c', { save: async () => longer }, limits));
    expect(dropped).toBe(`${'w'.repeat(budget)}\n${notSaved(5_000 - budget)}`);
  });

  it('a footer longer than its reserve takes what it needs, with or without the path, and the bound holds', async () => {
    const tight: ResultLimits = { maxResultBytes: 2_000, footerReserveBytes: 10, maxSpillBytes: 100_000 };
    const text = 'v'.repeat(5_000);
    const withoutPath = notSaved(5_000 - (2_000 - bytesOf(notSaved(5_000)) - 1));
    const expected = `${'v'.repeat(2_000 - bytesOf(notSaved(5_000)) - 1)}\n${withoutPath}`;
    expect(ToolResult.text(await cutOversizedResult(ToolResult.success(text), 'c', undefined, tight))).toBe(expected);
    expect(bytesOf(expected)).toBe(2_000);
    // A path too long for half the result is left out, and the shorter footer still gets its room.
    const absurd = `/${'s'.repeat(1_500)}`;
    expect(ToolResult.text(await cutOversizedResult(ToolResult.success(text), 'c', { save: async () => absurd }, tight))).toBe(expected);
  });

  it('a sink that answers with something other than a non-blank string saved nothing usable', async () => {
    const text = 'x'.repeat(3_000);
    for (const answer of [undefined, null, 42, '', '\t']) {
      const sink = { save: async () => answer } as unknown as SpillSink;
      expect(ToolResult.text(await cutOversizedResult(ToolResult.success(text), 'c', sink, limits))).toBe(`${'x'.repeat(budget)}\n${notSaved(3_000 - budget)}`);
    }
    const throwing: SpillSink = {
      save: () => {
        throw new Error('disk on fire');
      },
    };
    expect(ToolResult.text(await cutOversizedResult(ToolResult.success(text), 'c', throwing, limits))).toBe(`${'x'.repeat(budget)}\n${notSaved(3_000 - budget)}`);
  });

  it('a whole mebibyte cap is named in MiB, and the saved part ends at a character boundary', async () => {
    const sink = new MemorySpillSink();
    const mebibyte = 1024 * 1024;
    const text = '€'.repeat(Math.ceil((1.5 * mebibyte) / 3));
    const result = ToolResult.text(await cutOversizedResult(ToolResult.success(text), 'big', sink, { ...limits, maxSpillBytes: mebibyte }));
    expect(result).toContain(' bytes omitted. Only the first 1 MiB of the output were saved at ~/.openwork/spill/session_1/big.txt — use read with offset/limit, or grep, to look at it.)');
    const saved = sink.saved.get('big') ?? '';
    expect(bytesOf(saved)).toBe(mebibyte - (mebibyte % 3));
    expect(text.startsWith(saved)).toBe(true);
    // Text of exactly the cap is saved whole, and said to be.
    const exact = 'a'.repeat(100_000);
    const whole = ToolResult.text(await cutOversizedResult(ToolResult.success(exact), 'exact', sink, limits));
    expect(sink.saved.get('exact')).toBe(exact);
    expect(whole).toContain('bytes omitted. Full output saved at ~/.openwork/spill/session_1/exact.txt — ');
  });

  it('a cut result keeps its status, error code, retryability, artifacts and sandbox flag', async () => {
    const text = 'z'.repeat(3_000);
    const cutText = `${'z'.repeat(budget)}\n${notSaved(3_000 - budget)}`;
    const denied = ToolResult.failure({ code: 'permission_denied', message: text, retryable: true }, { artifacts: [{ kind: 'note' }], sandboxDenied: true });
    expect(await cutOversizedResult(denied, 'c', undefined, limits)).toStrictEqual({
      status: 'denied',
      content: [{ type: 'text', text: cutText }],
      artifacts: [{ kind: 'note' }],
      error: { code: 'permission_denied', message: cutText, retryable: true },
      sandboxDenied: true,
    });
    const succeeded = ToolResult.success(text, { artifacts: [{ kind: 'file_change', path: '/w/a' }], sandboxDenied: true });
    expect(await cutOversizedResult(succeeded, 'c', undefined, limits)).toStrictEqual({
      status: 'succeeded',
      content: [{ type: 'text', text: cutText }],
      artifacts: [{ kind: 'file_change', path: '/w/a' }],
      error: null,
      sandboxDenied: true,
    });
  });

  it('text of exactly the limit is returned as it is, however it is made of characters', async () => {
    for (const text of ['a'.repeat(2_000), '€'.repeat(666) + 'ab', '😀'.repeat(500)]) {
      expect(bytesOf(text)).toBe(2_000);
      const result = ToolResult.success(text);
      expect(await cutOversizedResult(result, 'c', new MemorySpillSink(), limits)).toBe(result);
    }
  });
});
