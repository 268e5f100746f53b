import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileLine } from './file-line.js';
import { NodeFileSystem } from './index.js';
import { LineSplitter } from './line-splitter.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

let directory: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  await directory.remove();
});

const content = 'one\r\ntwo\r\n\r\nthree\rfour\r\nend\r';
const expected = [
  { number: 1, text: 'one', terminator: 'crlf', byteLength: 3 },
  { number: 2, text: 'two', terminator: 'crlf', byteLength: 3 },
  { number: 3, text: '', terminator: 'crlf', byteLength: 0 },
  { number: 4, text: 'three\rfour', terminator: 'crlf', byteLength: 10 },
  { number: 5, text: 'end\r', terminator: 'none', byteLength: 4 },
];

describe('line terminators across chunk boundaries (§7.1)', () => {
  // With every chunk size, some `\r\n` is split so that its `\n` starts the next chunk; the `\r`
  // still belongs to the terminator, never to the content.
  for (const chunkBytes of [1, 2, 3, 4, 5, 6, 7, 11]) {
    it(`\\r\\n is one terminator however the file is chunked (${chunkBytes}-byte reads)`, async () => {
      const path = join(directory.path, 'crlf.txt');
      await writeFile(path, content);
      const lines: FileLine[] = [];
      const summary = await new NodeFileSystem({ chunkBytes }).readLines(path, { onLine: (line) => void lines.push(line) });
      expect(lines.map(({ number, text, terminator, byteLength }) => ({ number, text, terminator, byteLength }))).toStrictEqual(expected);
      expect(lines.every((line) => !line.truncated && line.isValidUtf8 && !line.hasNul)).toBe(true);
      expect(summary.lineCount).toBe(5);
    });
  }

  it('an empty chunk between others changes neither the lines nor the count', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter({ maxLineBytes: 100, firstLine: 1, onLine: (line) => void lines.push(`${line.text}|${line.terminator}`) });
    splitter.push(Buffer.from('a\r'));
    splitter.push(Buffer.alloc(0));
    splitter.push(Buffer.from('\nb\n'));
    splitter.push(Buffer.alloc(0));
    expect(splitter.finish()).toBe(2);
    expect(lines).toStrictEqual(['a|crlf', 'b|lf']);
  });

  it('a line cut at the cap across chunks keeps exactly the first bytes and the full length', () => {
    const lines: FileLine[] = [];
    const splitter = new LineSplitter({ maxLineBytes: 5, firstLine: 1, onLine: (line) => void lines.push(line) });
    for (const piece of ['ab', 'cd', 'efgh', 'ij\r', '\nxy\n']) splitter.push(Buffer.from(piece));
    expect(splitter.finish()).toBe(2);
    expect(lines.map((line) => [Buffer.from(line.bytes).toString(), line.byteLength, line.truncated, line.terminator])).toStrictEqual([
      ['abcde', 10, true, 'crlf'],
      ['xy', 2, false, 'lf'],
    ]);
  });
});
