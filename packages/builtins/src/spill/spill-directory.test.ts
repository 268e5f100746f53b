import { lstat, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTool, MAX_SPILL_BYTES, ToolResult } from '@openwork/tools-contract';
import * as z from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinRegistry } from '../registry/builtin-registry.js';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { SpillDirectory } from './spill-directory.js';

let fixture: BuiltinsFixture;
beforeEach(async () => {
  fixture = await createFixture({ sessionId: 'session/one' });
});
afterEach(async () => {
  await fixture.cleanup();
});

/** A tool whose result is `size` bytes of numbered lines: far over the 32,000-byte budget. */
const loud = defineTool({
  id: 'loud',
  description: 'Returns a long text.',
  risk: 'read_only',
  inputSchema: z.strictObject({ lines: z.number().int(), repeat: z.boolean().default(false) }),
  execute: (input) =>
    input.repeat ? '123456789\n'.repeat(input.lines) : Array.from({ length: input.lines }, (_, i) => String(i + 1).padStart(10, '0')).join('\n'),
});

function toolsetWithLoud(session = fixture.session) {
  return builtinRegistry()
    .register(loud)
    .finalize({ tools: ['read', 'write', 'loud'] }, session, { spill: session.spill!.sink() });
}

function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

describe('spill (§8.2)', () => {
  it('acc_26 spilled output is readable with read at the path shown, and never writable', async () => {
    const toolset = toolsetWithLoud();
    const result = await fixture.call('loud', { lines: 10_000 }, { toolset, callId: 'call:42' });
    const text = ToolResult.text(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(32_000);
    const footer = text.split('\n').at(-1)!;
    expect(footer).toMatch(/^\.\.\. \(\d+ bytes omitted\. Full output saved at ~\/\.openwork\/spill\/session_one\/call_42\.txt — use read with offset\/limit, or grep, to look at it\.\)$/);
    const shown = '~/.openwork/spill/session_one/call_42.txt';
    const onDisk = join(fixture.openworkHome, 'spill', 'session_one', 'call_42.txt');
    expect(await readFile(onDisk, 'utf8')).toBe(Array.from({ length: 10_000 }, (_, i) => String(i + 1).padStart(10, '0')).join('\n'));
    expect((await stat(onDisk)).mode & 0o777).toBe(0o600);
    // read opens exactly what the footer shows.
    expect(await fixture.text('read', { path: shown, offset: 9_999 }, { toolset })).toBe('9999\t0000009999\n10000\t0000010000');
    // …and no tool can write it, whatever the mode or grant.
    for (const policy of [fixture.policy(), fixture.policy({ mode: 'full-access', grants: [{ path: fixture.openworkHome, access: 'write', scope: 'subtree' }] })]) {
      const write = await fixture.call('write', { path: shown, content: 'tampered' }, { toolset, policy });
      expect(write.status).toBe('denied');
      expect(ToolResult.text(write)).toBe(`Permission denied: ${onDisk} is protected and cannot be changed by tools.`);
    }
    expect(await readFile(onDisk, 'utf8')).toMatch(/^0000000001\n/);
  });

  it('failed_spill_omits_the_path', async () => {
    // Something that is not a directory sits where the spill directory must go.
    await mkdir(fixture.openworkHome, { recursive: true });
    await writeFile(join(fixture.openworkHome, 'spill'), 'not a directory');
    const result = await fixture.call('loud', { lines: 10_000 }, { toolset: toolsetWithLoud(), callId: 'c1' });
    expect(result.status).toBe('succeeded');
    const text = ToolResult.text(result);
    expect(text.split('\n').at(-1)).toMatch(/^\.\.\. \(\d+ bytes omitted\. The full output was not saved; narrow the request to see the rest\.\)$/);
    expect(text).not.toContain('spill');
    expect(text).not.toContain('~/');
  });

  it('a failed write deletes the partial file', async () => {
    // The call's file name is taken by a directory: opening it fails after the directory exists.
    const directory = new SpillDirectory({ openworkHome: fixture.openworkHome, sessionId: 's', homeDirectory: fixture.home });
    await mkdir(directory.location('taken').path, { recursive: true });
    await expect(directory.sink().save('taken', 'text')).rejects.toThrow();
    expect(await readdir(directory.directory)).toEqual(['taken.txt']);
    expect((await stat(directory.location('taken').path)).isDirectory()).toBe(true);
  });

  it(`a result over 64 MiB saves only the first 64 MiB and says so`, async () => {
    const toolset = toolsetWithLoud();
    // 7,000,000 lines of 9 digits + newline: 70,000,000 bytes.
    const result = await fixture.call('loud', { lines: 7_000_000, repeat: true }, { toolset, callId: 'huge' });
    const text = ToolResult.text(result);
    expect(text.split('\n').at(-1)).toMatch(
      /^\.\.\. \(\d+ bytes omitted\. Only the first 64 MiB of the output were saved at ~\/\.openwork\/spill\/session_one\/huge\.txt — use read with offset\/limit, or grep, to look at it\.\)$/,
    );
    expect((await stat(join(fixture.openworkHome, 'spill', 'session_one', 'huge.txt'))).size).toBe(MAX_SPILL_BYTES);
  });

  it('names files with sanitised IDs and never leaves the session directory', () => {
    const directory = new SpillDirectory({ openworkHome: fixture.openworkHome, sessionId: '../../etc', homeDirectory: fixture.home });
    expect(directory.directory).toBe(join(fixture.openworkHome, 'spill', '______etc'));
    expect(directory.location('../x/../../y')).toEqual({
      path: join(fixture.openworkHome, 'spill', '______etc', '___x_______y.txt'),
      displayPath: '~/.openwork/spill/______etc/___x_______y.txt',
    });
    expect(() => new SpillDirectory({ openworkHome: 'relative', sessionId: 's' })).toThrow(/absolute openworkHome/);
  });
});

describe('SpillWriter (§8.2 grep/glob lists)', () => {
  it('buffers up to 256 KiB before creating the file, then streams, and keeps nothing when discarded', async () => {
    const directory = new SpillDirectory({ openworkHome: fixture.openworkHome, sessionId: 's', homeDirectory: fixture.home, bufferBytes: 1024 });
    const small = directory.openWriter('small');
    await small.write('a'.repeat(1000));
    expect(await exists(small.location.path)).toBe(false);
    await small.discard();
    expect(await exists(small.location.path)).toBe(false);

    const big = directory.openWriter('big');
    for (let i = 0; i < 100; i += 1) await big.write(`line ${i}\n`.padStart(50, ' '));
    expect(await exists(big.location.path)).toBe(true);
    const outcome = await big.finish();
    expect(outcome).toEqual({ saved: true, location: big.location, bytesWritten: 5000, truncated: false });
    expect((await readFile(big.location.path, 'utf8')).split('\n')).toHaveLength(101);

    const discarded = directory.openWriter('discarded');
    await discarded.write('x'.repeat(5000));
    expect(await exists(discarded.location.path)).toBe(true);
    await discarded.discard();
    expect(await exists(discarded.location.path)).toBe(false);
  });

  it('stops at the cap on a character boundary and reports truncation', async () => {
    const directory = new SpillDirectory({ openworkHome: fixture.openworkHome, sessionId: 's', maxBytes: 10, bufferBytes: 4 });
    const writer = directory.openWriter('capped');
    await writer.write('abcdefghi');
    await writer.write('éé');
    await writer.write('more');
    const outcome = await writer.finish();
    expect(outcome).toMatchObject({ saved: true, bytesWritten: 9, truncated: true });
    expect(await readFile(writer.location.path, 'utf8')).toBe('abcdefghi');
    // Without a home directory the location is shown absolute.
    expect(writer.location.displayPath).toBe(writer.location.path);
  });

  it('a failure reports saved: false and leaves no file', async () => {
    await mkdir(fixture.openworkHome, { recursive: true });
    await writeFile(join(fixture.openworkHome, 'spill'), 'blocked');
    const directory = new SpillDirectory({ openworkHome: fixture.openworkHome, sessionId: 's', bufferBytes: 1 });
    const writer = directory.openWriter('c');
    await writer.write('some text');
    const outcome = await writer.finish();
    expect(outcome.saved).toBe(false);
    expect(!outcome.saved && outcome.reason).toMatch(/^could not write .*: (ENOTDIR|EEXIST)$/);
  });
});
