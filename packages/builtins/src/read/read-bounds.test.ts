import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { pngFile } from '../test-support/image-files.js';

/** Every image check `read` makes, counted: the work a notebook page costs. */
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('./image/check-image.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./image/check-image.js')>();
  return {
    ...original,
    checkImage: (...args: Parameters<typeof original.checkImage>) => {
      checks.count += 1;
      return original.checkImage(...args);
    },
  };
});

let fixture: BuiltinsFixture;

beforeEach(async () => {
  fixture = await createFixture();
  checks.count = 0;
});

afterEach(async () => {
  await fixture.cleanup();
});

/** Text, then a hole up to `size` bytes (ext4 and tmpfs keep it sparse: no disk is used). */
async function sparseFile(name: string, text: string, size: number): Promise<string> {
  const path = join(fixture.workspace, name);
  await writeFile(path, text);
  const handle = await open(path, 'r+');
  await handle.truncate(size);
  await handle.close();
  return path;
}

async function observed(name: string): Promise<string | undefined> {
  const checked = await fixture.session.resolvePath(name, 'read', 'must-exist', fixture.policy(), 'read');
  return checked.ok ? fixture.session.observations.lookup(checked.path) : undefined;
}

describe('read is bounded in bytes and time (docs/decisions/0096)', () => {
  // A full read of a terabyte would not end within the test's timeout: these pass only because read stops.
  it('a 1 TiB sparse file: the first page comes back, said to be counted in the first 64 MiB only', async () => {
    await sparseFile('big.txt', 'alpha\nbeta\n', 2 ** 40);
    const first = await fixture.call('read', { path: 'big.txt' });
    expect(first.status).toBe('failed');
    expect(ToolResult.text(first)).toBe(
      'Line 3 of big.txt contains a NUL byte, so big.txt looks like a binary file, which read does not show. Inspect it with bash (for example file or xxd). Lines 1-2 can be read with offset=1 limit=2.',
    );
    const page = await fixture.call('read', { path: 'big.txt', offset: 1, limit: 2 });
    expect(page.status).toBe('succeeded');
    expect(ToolResult.text(page)).toBe(
      '1\talpha\n2\tbeta\n\n[showing lines 1-2 of at least 3 (big.txt is 1 TiB; read looked at its first 64 MiB and counted lines only there). Continue with offset=3]',
    );
    // Read in part: no hash is recorded (write and edit refuse files over 1 MiB anyway).
    expect(await observed('big.txt')).toBeUndefined();
  });

  it('an offset beyond what read looks at says how to get there instead', async () => {
    await sparseFile('deep.txt', 'one\ntwo\n', 2 ** 40);
    const result = await fixture.call('read', { path: 'deep.txt', offset: 5 });
    expect(result.status).toBe('failed');
    expect(ToolResult.text(result)).toBe(
      "offset 5 is not within the part read looks at: deep.txt is 1 TiB; read looked at its first 64 MiB, which hold 2 whole lines. Read a lower offset, search with grep, or show later lines with bash (for example sed -n '5,104p' or tail).",
    );
  });

  it('a notebook page checks only the images on it', async () => {
    const png = pngFile(4, 3).toString('base64');
    const output = { output_type: 'display_data', metadata: {}, data: { 'image/png': png } };
    const cells = [
      { cell_type: 'markdown', metadata: {}, source: 'intro' },
      ...Array.from({ length: 24 }, (_, index) => ({ cell_type: 'code', metadata: {}, execution_count: index, source: `plot(${index})`, outputs: [output] })),
    ];
    await writeFile(join(fixture.workspace, 'plots.ipynb'), JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells }));
    const intro = await fixture.call('read', { path: 'plots.ipynb', limit: 2 });
    expect(ToolResult.text(intro)).toContain('1\t[cell 1 · markdown]\n2\tintro\n');
    expect(checks.count).toBe(0);
    // Cell 2 is lines 4-7 (its image on line 7): that one image is the only one checked and attached.
    const second = await fixture.call('read', { path: 'plots.ipynb', offset: 4, limit: 4 });
    expect(ToolResult.text(second)).toContain('7\t[image 1 · image/png 4×3, 75 bytes]');
    expect(ToolResult.images(second)).toHaveLength(1);
    expect(checks.count).toBe(1);
  });

  it('a notebook page with more images than one result carries checks no more than it attaches', async () => {
    const png = pngFile(4, 3).toString('base64');
    const outputs = Array.from({ length: 30 }, () => ({ output_type: 'display_data', metadata: {}, data: { 'image/png': png } }));
    await writeFile(join(fixture.workspace, 'many.ipynb'), JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [{ cell_type: 'code', metadata: {}, source: 'x', outputs }] }));
    const result = await fixture.call('read', { path: 'many.ipynb' });
    expect(ToolResult.images(result)).toHaveLength(20);
    expect(checks.count).toBe(20);
    expect(ToolResult.text(result)).toContain('\n44\t[image 21 · image/png, not checked on this page]\n');
    expect(ToolResult.text(result)).toContain('[images 21, 22, 23, 24, 25, 26, 27, 28, 29, 30 not attached: one result carries at most 20 images and 5 MiB of image data. Read from offset=44 to see them.]');
  });
});
