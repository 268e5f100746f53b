import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BoundedCapture } from './bounded-capture.js';
import { NodeProcessBackend } from './index.js';
import { temporaryDirectory } from './test-support/temporary-directory.js';

const onLinux = process.platform === 'linux';
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
let workspace: { path: string; remove(): Promise<void> };

beforeEach(async () => {
  workspace = await temporaryDirectory();
});

afterEach(async () => {
  await workspace.remove();
});

/** Lets every callback that is already due run (no timer involved). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** The model-visible cut of `whole` (a Buffer), given how many bytes of head and tail are shown. */
function expectedCut(whole: Buffer, shownHead: number, shownTail: number): { text: string; omittedBytes: number } {
  const omittedBytes = whole.length - shownHead - shownTail;
  return {
    text: `${whole.subarray(0, shownHead).toString('utf8')}\n... (${omittedBytes} bytes omitted.)\n${whole.subarray(whole.length - shownTail).toString('utf8')}`,
    omittedBytes,
  };
}

describe('BoundedCapture: the cut never splits a character (§7.9)', () => {
  // The head keeps 2,048 bytes. A character whose bytes straddle that cut is dropped whole and
  // counted as omitted, whatever its length: 2 bytes (é), 3 (中), 4 (😀).
  const straddling: ReadonlyArray<[string, number]> = [
    ['é', 1],
    ['中', 1],
    ['中', 2],
    ['😀', 1],
    ['😀', 2],
    ['😀', 3],
  ];
  for (const [character, bytesInsideHead] of straddling) {
    it(`a ${Buffer.byteLength(character)}-byte character with ${bytesInsideHead} byte(s) inside the head is omitted whole`, async () => {
      const head = 'a'.repeat(2048 - bytesInsideHead);
      const whole = Buffer.from(`${head}${character}${'m'.repeat(20_000)}${'z'.repeat(14_336)}`, 'utf8');
      const capture = new BoundedCapture();
      capture.push(whole);
      const result = await capture.finish();
      expect(result).toStrictEqual({ ...expectedCut(whole, head.length, 14_336), totalBytes: whole.length });
      expect(result.text).not.toContain('\uFFFD');
    });
  }

  for (const character of ['é', '中', '😀']) {
    it(`a ${Buffer.byteLength(character)}-byte character that ends exactly at the cut is kept`, async () => {
      const head = 'a'.repeat(2048 - Buffer.byteLength(character)) + character;
      const whole = Buffer.from(`${head}${'m'.repeat(20_000)}${'z'.repeat(14_336)}`, 'utf8');
      const capture = new BoundedCapture();
      capture.push(whole);
      expect(await capture.finish()).toStrictEqual({ ...expectedCut(whole, 2048, 14_336), totalBytes: whole.length });
    });
  }

  // The tail keeps the last 14,336 bytes: a character whose lead byte fell before it is dropped.
  for (const [character, bytesInsideTail] of [
    ['é', 1],
    ['中', 2],
    ['😀', 3],
    ['😀', 1],
  ] as const) {
    it(`a ${Buffer.byteLength(character)}-byte character with ${bytesInsideTail} byte(s) inside the tail is omitted whole`, async () => {
      const tail = 'z'.repeat(14_336 - bytesInsideTail);
      const whole = Buffer.from(`${'a'.repeat(2048)}${'m'.repeat(20_000)}${character}${tail}`, 'utf8');
      const capture = new BoundedCapture();
      for (let offset = 0; offset < whole.length; offset += 1000) capture.push(whole.subarray(offset, offset + 1000));
      expect(await capture.finish()).toStrictEqual({ ...expectedCut(whole, 2048, tail.length), totalBytes: whole.length });
    });
  }

  // The first and last lead byte of each length (U+0080 C2, U+07FF DF, U+0800 E0, U+F900 EF,
  // U+10000 F0, U+100000 F4), one byte inside the head: each is recognised as a lead and dropped whole.
  for (const character of ['\u0080', '\u07ff', '\u0800', '\uf900', '\u{10000}', '\u{100000}']) {
    const lead = Buffer.from(character, 'utf8')[0]!.toString(16);
    it(`a character with lead byte 0x${lead} straddling the head's end is omitted whole`, async () => {
      const head = 'a'.repeat(2047);
      const whole = Buffer.from(`${head}${character}${'m'.repeat(20_000)}${'z'.repeat(14_336)}`, 'utf8');
      const capture = new BoundedCapture();
      capture.push(whole);
      const result = await capture.finish();
      expect(result).toStrictEqual({ ...expectedCut(whole, 2047, 14_336), totalBytes: whole.length });
      expect(result.text).not.toContain('\uFFFD');
    });
  }

  // Bytes that never start a character (C0, C1, F5–FF) end the head as they are: nothing is dropped.
  for (const invalid of [0xc0, 0xc1, 0xf5, 0xff]) {
    it(`a byte 0x${invalid.toString(16)} that starts no character is kept at the head's end`, async () => {
      const whole = Buffer.concat([Buffer.alloc(2047, 'a'), Buffer.from([invalid]), Buffer.alloc(20_000, 'm'), Buffer.alloc(14_336, 'z')]);
      const capture = new BoundedCapture();
      capture.push(whole);
      expect(await capture.finish()).toStrictEqual({ ...expectedCut(whole, 2048, 14_336), totalBytes: whole.length });
    });
  }

  it('the tail drops at most three continuation bytes: a fourth stray one is shown as it is', async () => {
    const tail = Buffer.concat([Buffer.from([0x80, 0x80, 0x80, 0x80]), Buffer.alloc(14_332, 'z')]);
    const whole = Buffer.concat([Buffer.alloc(2048, 'a'), Buffer.alloc(20_000, 'm'), tail]);
    const capture = new BoundedCapture();
    capture.push(whole);
    expect(await capture.finish()).toStrictEqual({ ...expectedCut(whole, 2048, 14_333), totalBytes: whole.length });
  });

  it('bytes that are not UTF-8 at the cut are shown as they are, not searched beyond four bytes', async () => {
    // Four continuation bytes end the head: no lead byte within reach, nothing is dropped.
    const head = Buffer.concat([Buffer.alloc(2044, 'a'), Buffer.from([0x80, 0x80, 0x80, 0x80])]);
    const whole = Buffer.concat([head, Buffer.alloc(20_000, 'm'), Buffer.alloc(14_336, 'z')]);
    const capture = new BoundedCapture();
    capture.push(whole);
    const result = await capture.finish();
    expect(result.omittedBytes).toBe(whole.length - 2048 - 14_336);
    expect(result.totalBytes).toBe(whole.length);
  });
});

describe('BoundedCapture: results say exactly what happened (toStrictEqual: no stray undefined keys)', () => {
  it('short output: the text, the count, nothing omitted, no spill fields', async () => {
    const capture = new BoundedCapture({ spill: { path: join(workspace.path, 'never.txt') } });
    capture.push(Buffer.from('hello\n'));
    capture.push(Buffer.alloc(0));
    capture.push(Buffer.from('wörld\n'));
    expect(await capture.finish()).toStrictEqual({ text: 'hello\nwörld\n', totalBytes: 13, omittedBytes: 0 });
    expect(existsSync(join(workspace.path, 'never.txt'))).toBe(false);
  });

  it('spilled output: the record, and no spillError key', async () => {
    const spillPath = join(workspace.path, 'spill', 'call.txt');
    const capture = new BoundedCapture({ spill: { path: spillPath, displayPath: '~/spill/call.txt' } });
    const whole = Buffer.alloc(20_000, 'q');
    capture.push(whole);
    expect(await capture.finish()).toStrictEqual({
      text: `${'q'.repeat(2048)}\n... (3616 bytes omitted. Full output saved at ~/spill/call.txt — use read with offset/limit, or grep, to look at it.)\n${'q'.repeat(14_336)}`,
      totalBytes: 20_000,
      omittedBytes: 3616,
      spill: { path: spillPath, bytesWritten: 20_000, truncated: false },
    });
    expect(await readFile(spillPath)).toEqual(whole);
  });

  it('a spill that failed: the reason, and no spill key', async () => {
    const blocker = join(workspace.path, 'a-file');
    await writeFile(blocker, 'where the spill directory should be');
    const spillPath = join(blocker, 'spill', 'call.txt');
    const capture = new BoundedCapture({ spill: { path: spillPath } });
    capture.push(Buffer.alloc(20_000, 'q'));
    expect(await capture.finish()).toStrictEqual({
      text: `${'q'.repeat(2048)}\n... (3616 bytes omitted.)\n${'q'.repeat(14_336)}`,
      totalBytes: 20_000,
      omittedBytes: 3616,
      spillError: `could not write ${spillPath}: ENOTDIR`,
    });
  });

  it('a cap of exactly 1 MiB is named in MiB; any other size in bytes', async () => {
    for (const [cap, named] of [
      [1024 * 1024, '1 MiB'],
      [1024 * 1024 + 1, '1048577 bytes'],
      [3 * 1024 * 1024 - 1, '3145727 bytes'],
    ] as const) {
      const spillPath = join(workspace.path, `capped-${cap}.txt`);
      const capture = new BoundedCapture({ spill: { path: spillPath, displayPath: 'SPILL' }, maxSpillBytes: cap });
      for (let index = 0; index < 64; index++) capture.push(Buffer.alloc(64 * 1024, 'c'));
      const result = await capture.finish();
      expect(result.spill).toStrictEqual({ path: spillPath, bytesWritten: cap, truncated: true });
      expect(result.text).toContain(`(${64 * 64 * 1024 - 16_384} bytes omitted. Only the first ${named} of the output were saved at SPILL — use read with offset/limit, or grep, to look at it.)\n`);
    }
  });
});

describe('BoundedCapture: nothing is taken after the end', () => {
  it('a push after abandon() creates no spill file and counts nothing', async () => {
    const spillPath = join(workspace.path, 'after-abandon.txt');
    const capture = new BoundedCapture({ spill: { path: spillPath } });
    capture.push(Buffer.from('a little\n'));
    await capture.abandon();
    capture.push(Buffer.alloc(40_000, 'x'));
    await sleep(20);
    expect(existsSync(spillPath)).toBe(false);
    expect(capture.totalBytes).toBe(9);
  });

  it('a push after finish() changes neither the result nor the disk', async () => {
    const spillPath = join(workspace.path, 'after-finish.txt');
    const capture = new BoundedCapture({ spill: { path: spillPath } });
    capture.push(Buffer.from('done\n'));
    const result = await capture.finish();
    capture.push(Buffer.alloc(40_000, 'x'));
    await sleep(20);
    expect(existsSync(spillPath)).toBe(false);
    expect(capture.totalBytes).toBe(5);
    expect(result).toStrictEqual({ text: 'done\n', totalBytes: 5, omittedBytes: 0 });
  });
});

describe('BoundedCapture: backpressure while the spill file lags (§8.2)', () => {
  it.skipIf(!onLinux)('asks the reader to pause once a megabyte is queued, and lets it go on once the disk caught up', async () => {
    // A FIFO as the spill file is a disk that writes only as fast as the test reads it.
    const spillPath = join(workspace.path, 'slow-disk');
    execFileSync('mkfifo', [spillPath]);
    const capture = new BoundedCapture({ spill: { path: spillPath } });
    expect(capture.needsBackpressure).toBe(false);
    await capture.whenDrained();

    capture.push(Buffer.alloc(20_000, 'a')); // opens the spill file, which waits for a reader
    const reader = await open(spillPath, 'r');
    try {
      const chunk = Buffer.alloc(64 * 1024, 'b');
      for (let index = 0; index < 64; index++) capture.push(chunk); // 4 MiB: far more than the FIFO holds
      expect(capture.needsBackpressure).toBe(true);
      let drained = false;
      void capture.whenDrained().then(() => {
        drained = true;
      });
      await settle();
      expect(drained).toBe(false);

      // The disk catches up: read until the capture says the reader may go on. Never read past
      // the bytes written: with all of them read and the writer still open, a read would wait for
      // good while the capture, on a loaded machine, had not yet said so (a flaky hang).
      const total = 20_000 + 64 * chunk.length;
      const buffer = Buffer.alloc(64 * 1024);
      let consumed = 0;
      while (!drained && consumed < total) {
        const { bytesRead } = await reader.read(buffer, 0, buffer.length, null);
        consumed += bytesRead;
        await settle();
      }
      for (let attempt = 0; attempt < 500 && !drained; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(drained).toBe(true);
      expect(capture.needsBackpressure).toBe(false);
      // Drained means at most the low-water mark (256 KiB) is still queued.
      expect(total - consumed).toBeLessThanOrEqual(256 * 1024 + 64 * 1024);

      const finished = capture.finish();
      for (;;) {
        const { bytesRead } = await reader.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        consumed += bytesRead;
      }
      const result = await finished;
      expect(consumed).toBe(total);
      expect(result.spill).toStrictEqual({ path: spillPath, bytesWritten: total, truncated: false });
    } finally {
      await reader.close();
    }
  });

  it.skipIf(!onLinux)('a fast process writing to a slow disk is held back: memory holds about a megabyte, not the output', async () => {
    const spillPath = join(workspace.path, 'slow-disk');
    execFileSync('mkfifo', [spillPath]);
    const total = 16 * 1024 * 1024;
    let received = 0;
    let consumed = 0;
    let furthestAhead = 0;
    const outcome = new NodeProcessBackend().spawn(['/bin/sh', '-c', `yes | head -c ${total}`], {
      cwd: workspace.path,
      env,
      spill: { path: spillPath },
      onProgress: ({ chunk, skippedBytes }) => {
        // ASCII: one byte per character; bytes live progress left out were received all the same.
        received += chunk.length + (skippedBytes ?? 0);
        furthestAhead = Math.max(furthestAhead, received - consumed);
      },
    });
    const reader = await open(spillPath, 'r');
    try {
      const buffer = Buffer.alloc(64 * 1024);
      for (;;) {
        const { bytesRead } = await reader.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        consumed += bytesRead;
        await sleep(1); // a slow disk
      }
    } finally {
      await reader.close();
    }
    const result = await outcome;
    expect(result.status).toBe('exited');
    expect(consumed).toBe(total);
    expect(result.spill).toStrictEqual({ path: spillPath, bytesWritten: total, truncated: false });
    // Queued for the disk: at most the 1 MiB high-water mark plus what was in flight (pipe
    // buffers, one read); without backpressure it would be most of the 16 MiB.
    expect(furthestAhead).toBeLessThan(2 * 1024 * 1024);
  });
});
