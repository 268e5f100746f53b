import { describe, expect, it } from 'vitest';
import { ProgressRateLimit } from './progress-rate-limit.js';

describe('ProgressRateLimit (§8.3 progress is best effort)', () => {
  it('reports everything while the stream stays under the rate', () => {
    const limit = new ProgressRateLimit(0, 1000, 100);
    expect(limit.accept(Buffer.from('hello '), 0)).toEqual({ text: 'hello ', skippedBytes: 0 });
    expect(limit.accept(Buffer.from('world'), 10)).toEqual({ text: 'world', skippedBytes: 0 });
    expect(limit.end()).toBeUndefined();
  });

  it('drops what exceeds the budget undecoded and says how much before the next update', () => {
    const limit = new ProgressRateLimit(0, 1000, 100);
    expect(limit.accept(Buffer.alloc(80, 'a'), 0)?.text).toBe('a'.repeat(80));
    // 20 bytes of budget left: a 50-byte chunk is dropped, another one too.
    expect(limit.accept(Buffer.alloc(50, 'b'), 0)).toBeUndefined();
    expect(limit.accept(Buffer.alloc(50, 'c'), 10)).toBeUndefined();
    // 100 ms later the budget is full again (1000 bytes/s).
    expect(limit.accept(Buffer.from('dd'), 110)).toEqual({ text: 'dd', skippedBytes: 100 });
    expect(limit.accept(Buffer.from('e'), 110)).toEqual({ text: 'e', skippedBytes: 0 });
  });

  it('never shows half a character: characters are kept whole across chunks and cut ones after a gap are dropped', () => {
    const limit = new ProgressRateLimit(0, 1000, 100);
    const euro = Buffer.from('€'); // e2 82 ac
    expect(limit.accept(euro.subarray(0, 1), 0)).toBeUndefined();
    expect(limit.accept(euro.subarray(1), 0)).toEqual({ text: '€', skippedBytes: 0 });
    expect(limit.accept(Buffer.alloc(200, 'x'), 0)).toBeUndefined();
    // After the gap the chunk starts in the middle of a character: its tail bytes are left out.
    expect(limit.accept(Buffer.concat([euro.subarray(1), Buffer.from('ok')]), 1000)).toEqual({ text: 'ok', skippedBytes: 200 });
  });

  it('reports a gap at the very end as an empty update', () => {
    const limit = new ProgressRateLimit(0, 1000, 10);
    expect(limit.accept(Buffer.alloc(20, 'z'), 0)).toBeUndefined();
    expect(limit.end()).toEqual({ text: '', skippedBytes: 20 });
  });
});
