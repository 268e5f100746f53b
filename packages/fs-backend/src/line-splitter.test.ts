import { describe, expect, it } from 'vitest';
import type { FileLine } from './file-line.js';
import { LineSplitter } from './line-splitter.js';

describe('LineSplitter', () => {
  it('retains one line buffer of maxLineBytes however long the line grows', () => {
    const lines: FileLine[] = [];
    const splitter = new LineSplitter({ maxLineBytes: 8000, firstLine: 1, onLine: (line) => void lines.push(line) });
    const chunk = Buffer.alloc(64 * 1024, 'z');
    for (let index = 0; index < 1024; index += 1) {
      splitter.push(chunk);
      expect(splitter.retainedBytes).toBe(8000);
    }
    splitter.push(Buffer.from('\n'));
    expect(splitter.finish()).toBe(1);
    expect(lines[0]?.byteLength).toBe(64 * 1024 * 1024);
    expect(lines[0]?.bytes.length).toBe(8000);
  });

  it('counts without delivering when nobody listens', () => {
    const splitter = new LineSplitter({ maxLineBytes: 4, firstLine: 1, onLine: undefined });
    splitter.push(Buffer.from('a\nb\n\nc'));
    splitter.push(Buffer.from('d\n'));
    expect(splitter.finish()).toBe(4);
  });
});
