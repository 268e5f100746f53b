import { describe, expect, it } from 'vitest';
import { BoundedLineSplitter, readBoundedLines, type InputLine } from './bounded-lines.js';

const texts = (lines: InputLine[]) => lines.map((line) => (line.kind === 'line' ? line.bytes.toString('utf8') : `<${line.length} bytes>`));

describe('BoundedLineSplitter', () => {
  it('splits lines across chunks, drops a final \\r and keeps a last line without \\n', () => {
    const splitter = new BoundedLineSplitter(100);
    expect(texts(splitter.push(Buffer.from('one\r\ntw')))).toEqual(['one']);
    expect(texts(splitter.push(Buffer.from('o\n\nthr')))).toEqual(['two', '']);
    expect(texts(splitter.end())).toEqual(['thr']);
    expect(splitter.end()).toEqual([]);
  });

  it('reports a line over the bound with its length and edges, then goes on with the next line', () => {
    const splitter = new BoundedLineSplitter(10);
    const long = `{"id":"head"${'x'.repeat(10_000)}"id":7}`;
    const lines = [...splitter.push(Buffer.from(long.slice(0, 5))), ...splitter.push(Buffer.from(`${long.slice(5)}\r\nnext\n`))];
    expect(lines).toHaveLength(2);
    const [oversized, next] = lines;
    expect(oversized).toMatchObject({ kind: 'oversized', length: long.length + 1 });
    if (oversized?.kind !== 'oversized') throw new Error('expected the oversized report');
    expect(oversized.head.startsWith('{"id":"head"xxx')).toBe(true);
    expect(oversized.head.length).toBe(4096);
    expect(oversized.tail.endsWith('xxx"id":7}')).toBe(true);
    expect(texts([next as InputLine])).toEqual(['next']);
  });

  it('a line of exactly the bound is read; one byte more is not', async () => {
    async function* input() {
      yield Buffer.from(`${'a'.repeat(8)}\n`);
      yield `${'b'.repeat(9)}\n`;
    }
    const lines: InputLine[] = [];
    for await (const line of readBoundedLines(input(), 8)) lines.push(line);
    expect(texts(lines)).toEqual(['aaaaaaaa', '<9 bytes>']);
  });
});
