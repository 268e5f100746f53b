import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BoundedCapture } from './bounded-capture.js';
import { temporaryDirectory } from './test-support/temporary-directory.js';

let workspace: { path: string; remove(): Promise<void> };

beforeEach(async () => {
  workspace = await temporaryDirectory();
});

afterEach(async () => {
  await workspace.remove();
});

async function waitForFile(file: string): Promise<void> {
  for (let attempt = 0; attempt < 250 && !existsSync(file); attempt++) await sleep(20);
}

describe('BoundedCapture', () => {
  it('an_abandoned_capture_leaves_no_spill_file', async () => {
    // Once the spill file has been written to…
    const written = join(workspace.path, 'spill', 'written.txt');
    const capture = new BoundedCapture({ spill: { path: written } });
    capture.push(Buffer.alloc(40_000, 'x'));
    await waitForFile(written);
    expect(existsSync(written)).toBe(true);
    capture.push(Buffer.alloc(10_000, 'y'));
    await capture.abandon();
    expect(existsSync(written)).toBe(false);

    // …and while it is still being opened: the open finishes, then the file is removed.
    const opening = join(workspace.path, 'spill', 'opening.txt');
    const early = new BoundedCapture({ spill: { path: opening } });
    early.push(Buffer.alloc(20_000, 'x'));
    await early.abandon();
    expect(existsSync(opening)).toBe(false);

    // Pushing after abandoning does not bring it back.
    early.push(Buffer.alloc(20_000, 'x'));
    await sleep(50);
    expect(existsSync(opening)).toBe(false);
  });

  it('spills the whole output, however it is chunked, and shows head + marker + tail', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 9_000 }), { minLength: 1, maxLength: 12 }), async (sizes) => {
        run++;
        const spillPath = join(workspace.path, `run-${run}.txt`);
        const capture = new BoundedCapture({ spill: { path: spillPath, displayPath: 'SPILL' } });
        const chunks = sizes.map((size, index) => Buffer.alloc(size, String.fromCharCode(97 + (index % 26))));
        for (const chunk of chunks) capture.push(chunk);
        const whole = Buffer.concat(chunks);
        const result = await capture.finish();
        expect(result.totalBytes).toBe(whole.length);
        if (whole.length <= 16_384) {
          expect(result.text).toBe(whole.toString('latin1'));
          expect(result.omittedBytes).toBe(0);
          expect(result.spill).toBeUndefined();
          expect(existsSync(spillPath)).toBe(false);
        } else {
          const omitted = whole.length - 16_384;
          expect(result.omittedBytes).toBe(omitted);
          expect(result.text).toBe(
            whole.subarray(0, 2048).toString('latin1') +
              `\n... (${omitted} bytes omitted. Full output saved at SPILL — use read with offset/limit, or grep, to look at it.)\n` +
              whole.subarray(whole.length - 14_336).toString('latin1'),
          );
          expect(result.spill).toEqual({ path: spillPath, bytesWritten: whole.length, truncated: false });
          expect((await readFile(spillPath)).equals(whole)).toBe(true);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('stops writing at the cap and says only the first part was saved', async () => {
    const spillPath = join(workspace.path, 'capped.txt');
    const capture = new BoundedCapture({ spill: { path: spillPath }, maxSpillBytes: 20_000 });
    for (let index = 0; index < 10; index++) capture.push(Buffer.alloc(5_000, 48 + index));
    const result = await capture.finish();
    expect(result.spill).toEqual({ path: spillPath, bytesWritten: 20_000, truncated: true });
    const saved = await readFile(spillPath, 'latin1');
    expect(saved).toBe('0'.repeat(5_000) + '1'.repeat(5_000) + '2'.repeat(5_000) + '3'.repeat(5_000));
    expect(result.text).toContain(`(${50_000 - 16_384} bytes omitted. Only the first 20000 bytes of the output were saved at ${spillPath} — `);
  });

  it('output of exactly the cap is not called truncated', async () => {
    const spillPath = join(workspace.path, 'exact.txt');
    const capture = new BoundedCapture({ spill: { path: spillPath }, maxSpillBytes: 20_000 });
    capture.push(Buffer.alloc(20_000, 'q'));
    const result = await capture.finish();
    expect(result.spill).toEqual({ path: spillPath, bytesWritten: 20_000, truncated: false });
  });

  it('without a spill target long output is still cut to head and tail, naming no file', async () => {
    const capture = new BoundedCapture();
    const chunks = Array.from({ length: 1_000 }, (_, index) => Buffer.alloc(1_000, index % 2 === 0 ? 'e' : 'o'));
    for (const chunk of chunks) capture.push(chunk);
    const whole = Buffer.concat(chunks).toString('latin1');
    const result = await capture.finish();
    expect(result.totalBytes).toBe(1_000_000);
    expect(result.spill).toBeUndefined();
    expect(result.text).toBe(`${whole.slice(0, 2048)}\n... (${1_000_000 - 16_384} bytes omitted.)\n${whole.slice(-14_336)}`);
  });
});
