import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { open, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_LINE_BYTES, FileSystemError, NodeFileSystem, type FileLine, type ReadLinesOptions } from './index.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

const sha256 = (content: Uint8Array) => createHash('sha256').update(content).digest('hex');
let directory: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  await directory.remove();
});

async function fileWith(content: string | Uint8Array, name = 'file.txt'): Promise<string> {
  const path = join(directory.path, name);
  await writeFile(path, content);
  return path;
}

async function collect(path: string, options: Omit<ReadLinesOptions, 'onLine'> = {}, fileSystem = new NodeFileSystem()) {
  const lines: FileLine[] = [];
  const summary = await fileSystem.readLines(path, { ...options, onLine: (line) => void lines.push(line) });
  return { lines, summary };
}

/** The plain, whole-buffer definition the streaming reader must agree with. */
function referenceLines(content: Buffer, maxLineBytes: number) {
  const raw: Buffer[] = [];
  let start = 0;
  for (let found = content.indexOf(10); found !== -1; found = content.indexOf(10, start)) {
    raw.push(content.subarray(start, found));
    start = found + 1;
  }
  const unterminated = start < content.length ? content.subarray(start) : undefined;
  const lines = raw.map((line, index) => ({ line, terminated: true, number: index + 1 }));
  if (unterminated !== undefined) lines.push({ line: unterminated, terminated: false, number: raw.length + 1 });
  return lines.map(({ line, terminated, number }) => {
    const crlf = terminated && line.length > 0 && line[line.length - 1] === 13;
    const body = crlf ? line.subarray(0, -1) : line;
    return {
      number,
      bytes: Buffer.from(body.subarray(0, maxLineBytes)),
      byteLength: body.length,
      truncated: body.length > maxLineBytes,
      hasNul: body.includes(0),
      isValidUtf8: isUtf8(body),
      terminator: crlf ? 'crlf' : terminated ? 'lf' : 'none',
    };
  });
}

const plain = (line: FileLine) => ({
  number: line.number,
  bytes: Buffer.from(line.bytes),
  byteLength: line.byteLength,
  truncated: line.truncated,
  hasNul: line.hasNul,
  isValidUtf8: line.isValidUtf8,
  terminator: line.terminator,
});

describe('readLines', () => {
  it('keeps exactly the first 8,000 bytes of a long line and still counts and hashes everything', async () => {
    const long = 'x'.repeat(7999) + 'YZ' + 'w'.repeat(10_000);
    const content = Buffer.from(`short\n${long}\nlast`);
    const { lines, summary } = await collect(await fileWith(content));
    expect(DEFAULT_MAX_LINE_BYTES).toBe(8000);
    expect(lines.map((line) => line.number)).toEqual([1, 2, 3]);
    const cut = lines[1] as FileLine;
    expect(cut.bytes.length).toBe(8000);
    expect(Buffer.from(cut.bytes).toString()).toBe('x'.repeat(7999) + 'Y');
    expect(cut.byteLength).toBe(long.length);
    expect(cut.truncated).toBe(true);
    expect(cut.text).toBe('x'.repeat(7999) + 'Y');
    expect(lines[0]?.truncated).toBe(false);
    expect(summary).toEqual({ lineCount: 3, byteLength: content.length, sha256: sha256(content), complete: true });
  });

  it('counts a last line without a trailing newline, and an empty file as zero lines', async () => {
    expect((await collect(await fileWith('a\nb'))).summary.lineCount).toBe(2);
    expect((await collect(await fileWith('a\nb\n'))).summary.lineCount).toBe(2);
    expect((await collect(await fileWith('a\nb\n\n'))).summary.lineCount).toBe(3);
    expect((await collect(await fileWith('\n'))).summary.lineCount).toBe(1);
    const empty = await collect(await fileWith(''));
    expect(empty.lines).toEqual([]);
    expect(empty.summary).toEqual({ lineCount: 0, byteLength: 0, sha256: sha256(Buffer.alloc(0)), complete: true });
    const last = (await collect(await fileWith('a\nb'))).lines[1];
    expect(last?.terminator).toBe('none');
    expect(last?.text).toBe('b');
  });

  it('treats \\r\\n as one terminator and keeps a lone \\r as content', async () => {
    const { lines } = await collect(await fileWith('one\r\ntwo\rstill two\r\n\r\nend\r'));
    expect(lines.map((line) => [line.text, line.terminator, line.byteLength])).toEqual([
      ['one', 'crlf', 3],
      ['two\rstill two', 'crlf', 13],
      ['', 'crlf', 0],
      ['end\r', 'none', 4],
    ]);
  });

  it('a \\r\\n right after the cap leaves the kept bytes complete and the line not truncated', async () => {
    const { lines } = await collect(await fileWith(`${'a'.repeat(8)}\r\nnext`), { maxLineBytes: 8 });
    expect(lines[0]?.truncated).toBe(false);
    expect(lines[0]?.byteLength).toBe(8);
    expect(lines[0]?.text).toBe('aaaaaaaa');
  });

  it('cuts raw bytes at the cap inside a multibyte character; text stops at the last whole character', async () => {
    // 7,998 ASCII bytes, then "é" (2 bytes) and "€" (3 bytes): the cap falls after the first byte of "€".
    const content = Buffer.from(`${'a'.repeat(7998)}é€tail\n`);
    const [line] = (await collect(await fileWith(content))).lines;
    expect(line?.bytes.length).toBe(8000);
    expect(Buffer.from(line?.bytes ?? []).equals(content.subarray(0, 8000))).toBe(true);
    expect(line?.text).toBe(`${'a'.repeat(7998)}é`);
    expect(line?.isValidUtf8).toBe(true);
    expect(line?.truncated).toBe(true);
  });

  it('reports NUL bytes and invalid UTF-8 anywhere in the line, also beyond the cap', async () => {
    const content = Buffer.concat([
      Buffer.from('fine é\n'),
      Buffer.from('nul\0inside\n'),
      Buffer.from(`${'a'.repeat(20)}\0 after the cap\n`),
      Buffer.from([0x62, 0xff, 0x62, 0x0a]),
      Buffer.concat([Buffer.from('b'.repeat(20)), Buffer.from([0xe2, 0x28, 0xa1]), Buffer.from('\n')]),
      Buffer.from([0x63, 0xe2, 0x82]),
    ]);
    const { lines } = await collect(await fileWith(content), { maxLineBytes: 10 });
    expect(lines.map((line) => [line.hasNul, line.isValidUtf8])).toEqual([
      [false, true],
      [true, true],
      [true, true],
      [false, false],
      [false, false],
      [false, false],
    ]);
  });

  it('starts delivering at firstLine and stops delivering when onLine returns false, but counts and hashes the whole file', async () => {
    const content = Buffer.from(Array.from({ length: 100 }, (_, index) => `line ${index + 1}`).join('\n'));
    const delivered: number[] = [];
    const summary = await new NodeFileSystem({ chunkBytes: 16 }).readLines(await fileWith(content), {
      firstLine: 40,
      onLine: (line) => {
        delivered.push(line.number);
        expect(line.text).toBe(`line ${line.number}`);
        return line.number < 42;
      },
    });
    expect(delivered).toEqual([40, 41, 42]);
    expect(summary).toEqual({ lineCount: 100, byteLength: content.length, sha256: sha256(content), complete: true });
    const beyond = await collect(await fileWith(content), { firstLine: 500 });
    expect(beyond.lines).toEqual([]);
    expect(beyond.summary.lineCount).toBe(100);
  });

  it('agrees with the whole-buffer definition for any content, chunk size, cap and start line', async () => {
    const alphabet = [0x0a, 0x0d, 0x00, 0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0x80];
    const byte = fc.oneof(fc.constantFrom(...alphabet), fc.integer({ min: 0, max: 255 }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(byte, { maxLength: 200 }),
        fc.integer({ min: 1, max: 17 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
        async (bytes, chunkBytes, maxLineBytes, firstLine) => {
          const content = Buffer.from(bytes);
          const path = await fileWith(content, 'property.bin');
          const { lines, summary } = await collect(path, { maxLineBytes, firstLine }, new NodeFileSystem({ chunkBytes }));
          const expected = referenceLines(content, maxLineBytes);
          expect(summary).toEqual({ lineCount: expected.length, byteLength: content.length, sha256: sha256(content), complete: true });
          expect(lines.map(plain)).toEqual(expected.filter((line) => line.number >= firstLine));
          for (const line of lines.filter((delivered) => delivered.isValidUtf8)) {
            const decoded = Buffer.from(line.bytes).toString();
            if (!line.truncated) expect(line.text).toBe(decoded);
            else {
              // Cut at the last whole character: a prefix of the kept bytes, short by at most 3 bytes.
              expect(Buffer.from(line.bytes).subarray(0, Buffer.byteLength(line.text)).toString()).toBe(line.text);
              expect(line.bytes.length - Buffer.byteLength(line.text)).toBeLessThanOrEqual(3);
              expect(line.text.includes('\uFFFD')).toBe(false);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a 50 MB single-line file with bounded memory, keeping 8,000 bytes of it', async () => {
    const size = 50 * 1024 * 1024;
    const path = join(directory.path, 'huge.txt');
    const handle = await open(path, 'w');
    const block = Buffer.alloc(1024 * 1024, 'q');
    for (let written = 0; written < size; written += block.length) await handle.write(block);
    await handle.close();
    const reference = createHash('sha256');
    for (let written = 0; written < size; written += block.length) reference.update(block);

    globalThis.gc?.();
    const before = process.memoryUsage();
    let peakArrayBuffers = before.arrayBuffers;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 1);
    const lines: FileLine[] = [];
    let summary;
    try {
      summary = await new NodeFileSystem().readLines(path, { onLine: (line) => void lines.push(line) });
    } finally {
      clearInterval(sampler);
    }
    const after = process.memoryUsage();
    peakArrayBuffers = Math.max(peakArrayBuffers, after.arrayBuffers);
    peakHeap = Math.max(peakHeap, after.heapUsed);

    expect(summary).toEqual({ lineCount: 1, byteLength: size, sha256: reference.digest('hex'), complete: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.bytes.length).toBe(8000);
    expect(lines[0]?.byteLength).toBe(size);
    // Two 1 MiB read buffers and one 8,000-byte line buffer; holding the line would cost 50 MB or more.
    expect(peakArrayBuffers - before.arrayBuffers).toBeLessThan(12 * 1024 * 1024);
    expect(peakHeap - before.heapUsed).toBeLessThan(24 * 1024 * 1024);
  });

  it('refuses directories, FIFOs, missing files and relative paths with distinct codes', async () => {
    const fileSystem = new NodeFileSystem();
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => 'resolved',
        (error: unknown) => (FileSystemError.isInstance(error) ? error.code : 'foreign error'),
      );
    await mkdir(join(directory.path, 'dir'));
    const fifo = join(directory.path, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await code(fileSystem.readLines(join(directory.path, 'dir')))).toBe('is_a_directory');
    expect(await code(fileSystem.readLines(fifo))).toBe('not_a_regular_file');
    expect(await code(fileSystem.readLines(join(directory.path, 'missing')))).toBe('not_found');
    expect(await code(fileSystem.readLines('relative.txt'))).toBe('invalid_path');
    expect(await code(fileSystem.readLines(join(directory.path, 'dir'), { maxLineBytes: 0 }))).toBe('invalid_argument');
  });

  it('stops with a cancelled error when the signal is aborted', async () => {
    const path = await fileWith('a\n'.repeat(10_000));
    const controller = new AbortController();
    const error = await new NodeFileSystem({ chunkBytes: 64 })
      .readLines(path, {
        signal: controller.signal,
        onLine: (line) => {
          if (line.number === 10) controller.abort();
        },
      })
      .catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(error) && error.code).toBe('cancelled');
  });

  it('maxBytes: a 1 TiB sparse file is read only as far as asked, said by complete: false; whole lines only', async () => {
    const path = await fileWith('first\nsecond\nthird');
    const handle = await open(path, 'r+');
    await handle.truncate(2 ** 40); // a terabyte of zeros after the text: a full read would never end in a test
    await handle.close();
    const { lines, summary } = await collect(path, { maxBytes: 16 });
    // 'first\nsecond\nthi': two whole lines; the cut third one is neither counted nor delivered.
    expect(lines.map((line) => line.text)).toEqual(['first', 'second']);
    expect(summary).toEqual({ lineCount: 2, byteLength: 16, sha256: sha256(Buffer.from('first\nsecond\nthi')), complete: false });
    // The bound lets a hole show as what it is: a NUL byte in the line read so far.
    const deep = await collect(path, { maxBytes: 1024 * 1024, firstLine: 3 });
    expect(deep.lines).toHaveLength(1);
    expect(deep.lines[0]).toMatchObject({ number: 3, hasNul: true });
    expect(deep.summary).toMatchObject({ lineCount: 3, byteLength: 1024 * 1024, complete: false });
  });

  it('maxBytes at or past the end of the file is a whole read', async () => {
    const path = await fileWith('a\nb\n');
    expect((await collect(path, { maxBytes: 4 })).summary).toEqual({ lineCount: 2, byteLength: 4, sha256: sha256(Buffer.from('a\nb\n')), complete: true });
    expect((await collect(path, { maxBytes: 100 })).summary.complete).toBe(true);
  });

  it('a deadline stops counting after the delivered lines, never before them', async () => {
    const path = await fileWith('x\n'.repeat(1000));
    const fileSystem = new NodeFileSystem({ chunkBytes: 64 });
    // A deadline already past: the lines asked for are still delivered whole, the counting after them stops.
    const lines: string[] = [];
    const summary = await fileSystem.readLines(path, { deadline: 0, onLine: (line) => lines.push(line.text) < 40 });
    expect(lines).toHaveLength(40);
    expect(summary.complete).toBe(false);
    expect(summary.lineCount).toBeLessThan(1000);
    expect(summary.lineCount).toBeGreaterThanOrEqual(40);
    expect((await fileSystem.readLines(path, { deadline: Date.now() + 60_000 })).complete).toBe(true);
  });
});
