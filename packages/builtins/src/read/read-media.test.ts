import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_RESULT_BYTES, ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { gifFile, jpegFile, PNG_SIGNATURE, pngChunk, pngFile, webpFile } from '../test-support/image-files.js';

let fixture: BuiltinsFixture;

beforeEach(async () => {
  fixture = await createFixture();
});

afterEach(async () => {
  await fixture.cleanup();
});

async function put(name: string, content: Buffer | string): Promise<string> {
  const path = join(fixture.workspace, name);
  await writeFile(path, content);
  return path;
}

async function observed(name: string): Promise<string | undefined> {
  const checked = await fixture.session.resolvePath(name, 'read', 'must-exist', fixture.policy(), 'read');
  return checked.ok ? fixture.session.observations.lookup(checked.path) : undefined;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describe('read of an image', () => {
  const cases = [
    ['shot.png', 'image/png', () => pngFile(64, 32), '64×32'],
    ['interlaced.png', 'image/png', () => pngFile(13, 7, { interlace: true }), '13×7'],
    ['photo.jpg', 'image/jpeg', () => jpegFile(40, 24), '40×24'],
    ['anim.gif', 'image/gif', () => gifFile(5, 3), '5×3'],
    ['logo.webp', 'image/webp', () => webpFile(6, 4), '6×4'],
  ] as const;

  for (const [name, mimeType, build, size] of cases) {
    it(`shows ${name} as one ${mimeType} part with its size from the header, and records its hash`, async () => {
      const bytes = build();
      await put(name, bytes);
      const result = await fixture.call('read', { path: name });
      expect(result.status).toBe('succeeded');
      expect(result.content).toEqual([
        { type: 'text', text: `${mimeType} ${size}, ${bytes.length} bytes` },
        { type: 'image', mimeType, data: bytes.toString('base64') },
      ]);
      expect(await observed(name)).toBe(sha256(bytes));
    });
  }

  it('detects the type by content: a PNG without an extension, a JPEG named .png', async () => {
    const png = pngFile(3, 2);
    await put('screenshot', png);
    expect((await fixture.call('read', { path: 'screenshot' })).content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: png.toString('base64') });
    const jpeg = jpegFile(8, 8);
    await put('wrong.png', jpeg);
    const result = await fixture.call('read', { path: 'wrong.png' });
    expect(ToolResult.text(result)).toBe(`image/jpeg 8×8, ${jpeg.length} bytes (named like a PNG, but the content is JPEG)`);
    expect(ToolResult.images(result)[0]?.mimeType).toBe('image/jpeg');
  });

  it('SVG is text', async () => {
    await put('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>\n');
    expect(await fixture.text('read', { path: 'icon.svg' })).toBe('1\t<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
  });

  it('refuses an image over 5 MiB with its size and what to do, before reading it', async () => {
    // A valid PNG header followed by a 6 MiB ancillary chunk: over the bound by size alone.
    const big = Buffer.concat([pngFile(2, 2).subarray(0, -12), pngChunk('zzZz', Buffer.alloc(6 * 1024 * 1024)), pngChunk('IEND', Buffer.alloc(0))]);
    await put('huge.png', big);
    const result = await fixture.call('read', { path: 'huge.png' });
    expect(result.status).toBe('failed');
    expect(ToolResult.text(result)).toBe(
      `huge.png is a PNG image of 6.0 MB (${big.length} bytes); read shows images up to 5 MiB. Make a smaller copy (for example \`convert IN -resize 2000x2000 OUT\` with ImageMagick, or Pillow in python3) and read that; read does not downscale images itself.`,
    );
    expect(ToolResult.images(result)).toEqual([]);
    expect(fixture.session.observations.size).toBe(0);
  });

  it('refuses an image over 8,000 px on a side, from its header, without inflating it', async () => {
    // 9000×10 promised, with 10 bytes of image data: the size check comes first.
    const header = Buffer.alloc(13);
    header.writeUInt32BE(9000, 0);
    header.writeUInt32BE(10, 4);
    header.set([8, 6, 0, 0, 0], 8);
    await put('wide.png', Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', Buffer.alloc(10)), pngChunk('IEND', Buffer.alloc(0))]));
    const result = await fixture.call('read', { path: 'wide.png' });
    expect(ToolResult.text(result)).toMatch(/^wide\.png is a PNG image of 9000×10 px; read shows images up to 8000 px on a side\. Make a smaller copy/);
    const tall = jpegFile(16, 8);
    // SOF0's height is bytes 5–6 of its segment: promise 8001 rows.
    const sof = tall.indexOf(Buffer.from([0xff, 0xc0]));
    tall.writeUInt16BE(8001, sof + 5);
    await put('tall.jpg', tall);
    expect(ToolResult.text(await fixture.call('read', { path: 'tall.jpg' }))).toMatch(/^tall\.jpg is a JPEG image of 16×8001 px; read shows images up to 8000 px/);
    expect(fixture.session.observations.size).toBe(0);
  });

  it('a truncated or corrupt image gets a clear error and records nothing', async () => {
    const png = pngFile(16, 16);
    const flipped = Buffer.from(png);
    flipped[45] = flipped[45]! ^ 0xff;
    // Whole chunks with matching CRCs, but image data that inflates to too few bytes.
    const header = png.subarray(8, 33);
    const short = Buffer.concat([PNG_SIGNATURE, header, pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])), pngChunk('IEND', Buffer.alloc(0))]);
    const jpeg = jpegFile(16, 16);
    const gif = gifFile(4, 4);
    const webp = webpFile(4, 4);
    const cases: [string, Buffer, string][] = [
      ['cut.png', png.subarray(0, png.length - 20), 'cut.png starts like a PNG image but is not a valid one: its IDAT chunk runs past the end of the file (the file is truncated).'],
      ['flipped.png', flipped, 'flipped.png starts like a PNG image but is not a valid one: the CRC of its IDAT chunk does not match (the file is damaged).'],
      ['short.png', short, `short.png starts like a PNG image but is not a valid one: its image data holds 0 bytes where its 16×16 header needs ${16 * (1 + 64)} (the file is damaged).`],
      ['cut.jpg', jpeg.subarray(0, jpeg.length - 2), 'cut.jpg starts like a JPEG image but is not a valid one: it ends before its EOI marker (the file is truncated).'],
      ['cut.gif', gif.subarray(0, gif.length - 1), 'cut.gif starts like a GIF image but is not a valid one: it ends before its trailer (the file is truncated).'],
      ['cut.webp', webp.subarray(0, webp.length - 2), `cut.webp starts like a WebP image but is not a valid one: its RIFF header promises ${webp.length} bytes but the file has ${webp.length - 2} (the file is truncated).`],
    ];
    for (const [name, bytes, message] of cases) {
      await put(name, bytes);
      const result = await fixture.call('read', { path: name });
      expect(result.status, name).toBe('failed');
      expect(ToolResult.text(result), name).toBe(`${message} read shows whole, valid images only; check the file with bash (for example file or xxd).`);
    }
    expect(fixture.session.observations.size).toBe(0);
  });

  it('an image behind a link into a credential directory is denied like any read, its bytes never shown', async () => {
    await mkdir(join(fixture.home, '.ssh'));
    const png = pngFile(2, 2);
    await writeFile(join(fixture.home, '.ssh', 'qr.png'), png);
    await symlink(join(fixture.home, '.ssh'), join(fixture.workspace, 'keys'));
    const result = await fixture.call('read', { path: 'keys/qr.png' });
    expect(result.status).toBe('denied');
    expect(ToolResult.images(result)).toEqual([]);
    expect(JSON.stringify(result)).not.toContain(png.toString('base64'));
    expect(fixture.session.observations.size).toBe(0);
  });

  it('an image that lies about its type: named .png, content HTML', async () => {
    await put('logo.png', '<html>not an image</html>\n');
    const result = await fixture.call('read', { path: 'logo.png' });
    expect(result.status).toBe('failed');
    expect(ToolResult.text(result)).toBe(
      'logo.png is named like a PNG image, but its content is not a PNG, JPEG, GIF or WebP image (it starts with the bytes 3c 68 74 6d 6c 3e 6e 6f), so read does not show it. Check what it is with bash (for example file or xxd).',
    );
    expect(fixture.session.observations.size).toBe(0);
  });
});

describe('read of a directory', () => {
  it('lists like list: sorted, hidden entries, directories with /; read paging (1-based) applies', async () => {
    await mkdir(join(fixture.workspace, 'dir'));
    await mkdir(join(fixture.workspace, 'dir', 'sub'));
    for (const name of ['b.txt', '.hidden', 'a.txt', 'C.md']) await put(`dir/${name}`, 'x');
    const listed = await fixture.text('list', { path: 'dir' });
    expect(await fixture.text('read', { path: 'dir' })).toBe(listed);
    expect(listed.split('\n')).toHaveLength(5);
    const names = listed.split('\n');
    expect(await fixture.text('read', { path: 'dir', offset: 2, limit: 2 })).toBe(`${names[1]}\n${names[2]}\n\n[showing entries 2-3 of 5 in dir. Continue with offset=4]`);
    expect(await fixture.text('read', { path: 'dir', offset: 4 })).toBe(`${names[3]}\n${names[4]}`);
    const past = await fixture.call('read', { path: 'dir', offset: 6 });
    expect(ToolResult.text(past)).toBe('offset 6 is past the last entry of dir, which has 5 entries. Read with an offset from 1 to 5.');
    await mkdir(join(fixture.workspace, 'empty'));
    expect(await fixture.text('read', { path: 'empty' })).toBe('[empty directory]');
  });

  it('a page of a large directory stays within 32 KB and says where to continue', async () => {
    await mkdir(join(fixture.workspace, 'many'));
    await Promise.all(Array.from({ length: 1500 }, (_, i) => put(`many/${String(i).padStart(4, '0')}-${'n'.repeat(40)}.txt`, '')));
    const text = await fixture.text('read', { path: 'many' });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    const shown = text.split('\n\n')[0]!.split('\n').length;
    expect(shown).toBeLessThan(1500);
    expect(text.endsWith(`[showing entries 1-${shown} of 1500 in many. Continue with offset=${shown + 1}]`)).toBe(true);
    const next = await fixture.text('read', { path: 'many', offset: shown + 1, limit: 1 });
    expect(next.split('\n')[0]).toBe(`${String(shown).padStart(4, '0')}-${'n'.repeat(40)}.txt`);
  });
});

describe('read of a notebook', () => {
  const png = pngFile(4, 3);
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# Analysis\n', 'Loads the data.'] },
      {
        cell_type: 'code',
        execution_count: 1,
        metadata: {},
        source: 'import pandas as pd\nprint("rows", 3)',
        outputs: [
          { output_type: 'stream', name: 'stdout', text: ['rows 3\n'] },
          { output_type: 'execute_result', execution_count: 1, metadata: {}, data: { 'text/plain': ['   a\n', '0  1'], 'text/html': '<table/>' } },
        ],
      },
      {
        cell_type: 'code',
        execution_count: 2,
        metadata: {},
        source: '1 / 0',
        outputs: [
          {
            output_type: 'error',
            ename: 'ZeroDivisionError',
            evalue: 'division by zero',
            traceback: ['\u001b[0;31m---------------------------------------------------------------------------\u001b[0m', '\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'],
          },
        ],
      },
      {
        cell_type: 'code',
        execution_count: 3,
        metadata: {},
        source: 'plt.plot([1, 2])',
        outputs: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': `${png.toString('base64').replace(/(.{60})/g, '$1\n')}`, 'text/plain': '<Figure size 640x480 with 1 Axes>' } }],
      },
    ],
  };
  const rendered = [
    '1\t[cell 1 · markdown]',
    '2\t# Analysis',
    '3\tLoads the data.',
    '4\t',
    '5\t[cell 2 · code]',
    '6\timport pandas as pd',
    '7\tprint("rows", 3)',
    '8\t[output · stdout]',
    '9\trows 3',
    '10\t[output · result]',
    '11\t   a',
    '12\t0  1',
    '13\t',
    '14\t[cell 3 · code]',
    '15\t1 / 0',
    '16\t[output · error ZeroDivisionError]',
    '17\t---------------------------------------------------------------------------',
    '18\tZeroDivisionError: division by zero',
    '19\t',
    '20\t[cell 4 · code]',
    '21\tplt.plot([1, 2])',
    '22\t[output · display]',
    `23\t[image 1 · image/png 4×3, ${png.length} bytes]`,
    '24\t<Figure size 640x480 with 1 Axes>',
  ];
  const hint = '[notebook shown rendered; edit and write change its JSON text: grep -n the .ipynb to see the raw lines]';

  it('renders cells with code, markdown, stream, result, error and image outputs, and attaches the image', async () => {
    const text = JSON.stringify(notebook, null, 1);
    await put('analysis.ipynb', text);
    const result = await fixture.call('read', { path: 'analysis.ipynb' });
    expect(result.status).toBe('succeeded');
    expect(result.content).toEqual([
      { type: 'text', text: `${rendered.join('\n')}\n${hint}` },
      { type: 'image', mimeType: 'image/png', data: png.toString('base64') },
    ]);
    expect(await observed('analysis.ipynb')).toBe(sha256(Buffer.from(text)));
  });

  it('line numbers and offset/limit refer to the rendered text; images only with their line', async () => {
    await put('analysis.ipynb', JSON.stringify(notebook));
    const first = await fixture.call('read', { path: 'analysis.ipynb', offset: 5, limit: 5 });
    expect(ToolResult.text(first)).toBe(`${rendered.slice(4, 9).join('\n')}\n\n[showing lines 5-9 of 24. Continue with offset=10]\n${hint}`);
    expect(ToolResult.images(first)).toEqual([]);
    const last = await fixture.call('read', { path: 'analysis.ipynb', offset: 23 });
    expect(ToolResult.text(last)).toBe(`${rendered.slice(22).join('\n')}\n${hint}`);
    expect(ToolResult.images(last)).toHaveLength(1);
    const past = await fixture.call('read', { path: 'analysis.ipynb', offset: 25 });
    expect(ToolResult.text(past)).toBe('offset 25 is past the end of analysis.ipynb, which renders to 24 lines. Read with an offset from 1 to 24.');
  });

  it('edit stays on the JSON after a read of the rendered notebook', async () => {
    const path = await put('analysis.ipynb', JSON.stringify(notebook, null, 1));
    await fixture.call('read', { path: 'analysis.ipynb' });
    const edited = await fixture.call('edit', { filePath: 'analysis.ipynb', oldString: '"source": "1 / 0"', newString: '"source": "1 / 2"' });
    expect(ToolResult.text(edited)).toMatch(/^Edited analysis\.ipynb/);
    expect(JSON.parse(await readFile(path, 'utf8')).cells[2].source).toBe('1 / 2');
  });

  it('a broken image output is named in the text and not attached; the rest is shown', async () => {
    const broken = JSON.parse(JSON.stringify(notebook)) as { cells: { outputs?: { data?: Record<string, string> }[] }[] };
    broken.cells[3]!.outputs![0]!.data!['image/png'] = png.subarray(0, 30).toString('base64');
    await put('broken.ipynb', JSON.stringify(broken));
    const result = await fixture.call('read', { path: 'broken.ipynb', offset: 22 });
    expect(ToolResult.text(result)).toBe(`22\t[output · display]\n23\t(PNG image output not shown: its IHDR chunk runs past the end of the file (the file is truncated))\n24\t<Figure size 640x480 with 1 Axes>\n${hint}`);
    expect(ToolResult.images(result)).toEqual([]);
  });

  it('more image outputs than one result carries: the first 20 are attached, the rest named', async () => {
    const many = {
      nbformat: 4,
      nbformat_minor: 4,
      metadata: {},
      cells: [{ cell_type: 'code', source: 'for i in range(22): show(i)', metadata: {}, outputs: Array.from({ length: 22 }, () => ({ output_type: 'display_data', metadata: {}, data: { 'image/png': png.toString('base64') } })) }],
    };
    await put('many.ipynb', JSON.stringify(many));
    const result = await fixture.call('read', { path: 'many.ipynb' });
    expect(ToolResult.images(result)).toHaveLength(20);
    expect(ToolResult.text(result)).toContain('\n[images 21, 22 not attached: one result carries at most 20 images and 5 MiB of image data. Read from offset=44 to see them.]\n');
    const rest = await fixture.call('read', { path: 'many.ipynb', offset: 44 });
    expect(ToolResult.images(rest)).toHaveLength(2);
  });

  it('a notebook that is not valid JSON, or not nbformat 4, gets a clear error and records nothing', async () => {
    const cases: [string, string, string][] = [
      ['bad.ipynb', '{"cells": [', 'bad.ipynb is not valid JSON ('],
      ['old.ipynb', JSON.stringify({ nbformat: 3, worksheets: [] }), 'old.ipynb is not a Jupyter notebook read can show: it is not nbformat 4 (its nbformat is 3). read shows nbformat 4 notebooks; look at the raw JSON with grep or bash.'],
      ['odd.ipynb', JSON.stringify({ nbformat: 4, cells: [{ cell_type: 'code', source: 1 }] }), 'odd.ipynb is not a Jupyter notebook read can show: cell 1 has a source that is not a string or an array of strings.'],
      ['list.ipynb', '[1, 2]', 'list.ipynb is not a Jupyter notebook read can show: its top level is not a JSON object.'],
    ];
    for (const [name, content, message] of cases) {
      await put(name, content);
      const result = await fixture.call('read', { path: name });
      expect(result.status, name).toBe('failed');
      expect(ToolResult.text(result).startsWith(message), ToolResult.text(result)).toBe(true);
    }
    expect(ToolResult.text(await fixture.call('read', { path: 'bad.ipynb' }))).toMatch(/so read cannot show it as a notebook\. Look at the raw text with grep, or with bash \(for example head -c 2000\)\.$/);
    expect(fixture.session.observations.size).toBe(0);
    expect((await stat(join(fixture.workspace, 'bad.ipynb'))).size).toBe('{"cells": ['.length);
  });

  it('an empty notebook', async () => {
    await put('empty.ipynb', JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [] }));
    expect(await fixture.text('read', { path: 'empty.ipynb' })).toBe('[empty notebook: no cells]');
  });
});
