import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture, type FixtureOptions } from '../test-support/builtins-fixture.js';
import { interceptingFileSystem } from '../test-support/intercepting-file-system.js';
import { searchWorkersRunning, useCompiledSearchWorkers } from './test-support/compiled-search-workers.js';

let fixture: BuiltinsFixture;
let stopWorkers: () => Promise<void>;
const extraFixtures: BuiltinsFixture[] = [];
beforeAll(async () => {
  stopWorkers = await useCompiledSearchWorkers();
});
afterAll(async () => {
  await stopWorkers();
});
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
  for (const extra of extraFixtures.splice(0)) await extra.cleanup();
});

async function put(relative: string, content: string | Buffer, base = fixture.workspace): Promise<void> {
  const path = join(base, relative);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

function spillPath(callId: string, on = fixture): string {
  return join(on.openworkHome, 'spill', 'session-1', `${callId}.txt`);
}

async function other(options: FixtureOptions): Promise<BuiltinsFixture> {
  const created = await createFixture(options);
  extraFixtures.push(created);
  return created;
}

/** `count` lines, every `every`-th (1-based) containing `needle`. */
function lines(count: number, every: number, needle: string): string {
  let text = '';
  for (let line = 1; line <= count; line += 1) text += line % every === 0 ? `line ${line} ${needle}\n` : `line ${line}\n`;
  return text;
}

describe('grep (§7.6)', () => {
  it('searches with worker threads in these tests (the path users get)', async () => {
    expect(await searchWorkersRunning()).toBe(true);
  });

  it('finds lines grouped by file, in walk order, with line numbers', async () => {
    await put('b.txt', 'one foo\ntwo\nthree foo foo\n');
    await put('a/c.txt', 'foo');
    await put('a.txt', 'no\r\nfoo with crlf\r\n');
    expect(await fixture.text('grep', { pattern: 'foo' })).toBe(
      'a/c.txt\n1:foo\n\na.txt\n2:foo with crlf\n\nb.txt\n1:one foo\n3:three foo foo',
    );
  });

  it('acc_22_bounds_lines_and_reports_exact_totals', async () => {
    // 30 files with 60 matching lines each (1,800 in all), plus files without matches.
    const names: string[] = [];
    for (let file = 0; file < 30; file += 1) {
      const name = `src/f${String(file).padStart(2, '0')}.txt`;
      names.push(name);
      await put(name, lines(120, 2, 'needle'));
      await put(`src/plain${file}.txt`, lines(50, 1000, 'x'));
    }
    const result = await fixture.call('grep', { pattern: 'needle' }, { callId: 'acc22' });
    expect(result.status).toBe('succeeded');
    const text = ToolResult.text(result);
    const [body, footer] = text.split('\n\n[');
    // 250 lines in all: five files of 50, each with its own "more" line.
    const groups = body!.split('\n\n');
    expect(groups).toHaveLength(5);
    for (const [index, group] of groups.entries()) {
      const groupLines = group.split('\n');
      expect(groupLines[0]).toBe(names[index]);
      expect(groupLines.slice(1, 51)).toEqual(Array.from({ length: 50 }, (_, line) => `${(line + 1) * 2}:line ${(line + 1) * 2} needle`));
      expect(groupLines[51]).toBe('(+10 more matching lines in this file)');
      expect(groupLines).toHaveLength(52);
    }
    expect(`[${footer}`).toBe('[showing 250 of 1800 matching lines in 30 files; full list saved to ~/.openwork/spill/session-1/acc22.txt]');
    // Counting went on past the caps: the full list has every match, in walk order.
    const full = (await readFile(spillPath('acc22'), 'utf8')).split('\n');
    expect(full.pop()).toBe('');
    expect(full).toHaveLength(1800);
    expect(full[0]).toBe('src/f00.txt:2:line 2 needle');
    expect(full[59]).toBe('src/f00.txt:120:line 120 needle');
    expect(full[1799]).toBe('src/f29.txt:120:line 120 needle');
    expect(full).toEqual(names.flatMap((name) => Array.from({ length: 60 }, (_, line) => `${name}:${(line + 1) * 2}:line ${(line + 1) * 2} needle`)));
  });

  it('writes a long full list in walk order while the workers wait for it (no stall)', async () => {
    // About 9 MB of full list from 240 files, files without a match between them: far more than
    // the workers may have unwritten, so they wait for the writer, file after file.
    const expected: string[] = [];
    for (let file = 0; file < 240; file += 1) {
      const name = `big/f${String(file).padStart(3, '0')}.txt`;
      if (file % 3 === 1) {
        await put(name, lines(50, 1000, 'none'));
        continue;
      }
      await put(name, lines(1000, 1, 'a matching line with some text after it'));
      for (let line = 1; line <= 1000; line += 1) expected.push(`${name}:${line}:line ${line} a matching line with some text after it`);
    }
    const result = await fixture.call('grep', { pattern: 'matching' }, { callId: 'stream' });
    const text = ToolResult.text(result);
    expect(text.split('\n').at(-1)).toBe('[showing 250 of 160000 matching lines in 160 files; full list saved to ~/.openwork/spill/session-1/stream.txt]');
    expect((await readFile(spillPath('stream'), 'utf8')).trimEnd().split('\n')).toEqual(expected);
  });

  it('cuts long matching lines to 2,000 bytes with a marker, and keeps the result under 32,000 bytes', async () => {
    const long = `${'é'.repeat(1500)}needle${'z'.repeat(100)}`;
    await put('wide.txt', `${long}\nshort needle\n`);
    const text = await fixture.text('grep', { pattern: 'needle' });
    // 1,000 é are 2,000 bytes: the cut falls on a character boundary.
    expect(text).toBe(`wide.txt\n1:${'é'.repeat(1000)}... (line truncated to 2000 bytes)\n2:short needle`);

    for (let file = 0; file < 40; file += 1) await put(`many/f${String(file).padStart(2, '0')}.txt`, `${'a'.repeat(3000)} needle\n`);
    const capped = await fixture.call('grep', { pattern: 'needle', path: 'many' }, { callId: 'wide' });
    const cappedText = ToolResult.text(capped);
    expect(Buffer.byteLength(cappedText)).toBeLessThanOrEqual(32_000);
    const shown = cappedText.split('\n').filter((line) => line.startsWith('1:'));
    expect(shown.length).toBeGreaterThan(10);
    expect(cappedText.endsWith(`[showing ${shown.length} of 40 matching lines in 40 files; full list saved to ~/.openwork/spill/session-1/wide.txt]`)).toBe(true);
    expect((await readFile(spillPath('wide'), 'utf8')).split('\n')).toHaveLength(41);
  });

  it('file_modes_report_exact_totals', async () => {
    for (let file = 0; file < 300; file += 1) await put(`d/f${String(file).padStart(3, '0')}.txt`, lines(10, file % 3 === 0 ? 1 : 5, 'hit'));
    await put('d/none.txt', 'nothing here\n');
    const files = await fixture.call('grep', { pattern: 'hit', outputMode: 'files_with_matches' }, { callId: 'files' });
    const fileLines = ToolResult.text(files).split('\n');
    expect(fileLines.slice(0, 250)).toEqual(Array.from({ length: 250 }, (_, file) => `d/f${String(file).padStart(3, '0')}.txt`));
    expect(fileLines.slice(250)).toEqual(['', '[showing 250 of 300 files with matches; full list saved to ~/.openwork/spill/session-1/files.txt]']);
    const fullFiles = (await readFile(spillPath('files'), 'utf8')).trimEnd().split('\n');
    expect(fullFiles).toEqual(Array.from({ length: 300 }, (_, file) => `d/f${String(file).padStart(3, '0')}.txt`));

    const counts = await fixture.call('grep', { pattern: 'hit', outputMode: 'count' }, { callId: 'counts' });
    const countLines = ToolResult.text(counts).split('\n');
    const expected = Array.from({ length: 300 }, (_, file) => `d/f${String(file).padStart(3, '0')}.txt:${file % 3 === 0 ? 10 : 2}`);
    expect(countLines.slice(0, 250)).toEqual(expected.slice(0, 250));
    // 100 files with 10 lines and 200 with 2.
    expect(countLines.slice(250)).toEqual(['', '[showing 250 of 300 files with matches, 1400 matching lines in all; full list saved to ~/.openwork/spill/session-1/counts.txt]']);
    expect((await readFile(spillPath('counts'), 'utf8')).trimEnd().split('\n')).toEqual(expected);

    // Under the caps: no footer and no spill file.
    const few = await fixture.call('grep', { pattern: 'hit', path: 'd/f001.txt', outputMode: 'count' }, { callId: 'few' });
    expect(ToolResult.text(few)).toBe('d/f001.txt:2');
    await expect(readFile(spillPath('few'))).rejects.toThrow();
  });

  it('acc_23_timeout_reports_at_least_the_counted_matches', async () => {
    // A real scan, cut short: the host's deadline for the call is the limit (§5), and the file
    // system holds the fifth file until that deadline has passed, so exactly four files count.
    let deadline = 0;
    const slow = interceptingFileSystem(async (operation, args) => {
      if (operation === 'lstat' && String(args[0]).endsWith('/f4.txt')) {
        while (Date.now() <= deadline + 5) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    const timed = await other({ filesystem: slow as AsyncFileSystem });
    for (let file = 0; file < 8; file += 1) await put(`f${file}.txt`, lines(20, 4, 'tick'), timed.workspace);
    deadline = Date.now() + 1500;
    const result = await timed.toolset.call('grep', { pattern: 'tick' }, { callId: 'slow', signal: new AbortController().signal, deadline, sandboxPolicy: timed.policy() });
    expect(result.status).toBe('succeeded');
    const text = ToolResult.text(result);
    expect(text).toMatch(/\n\n\[at least 20 matching lines in 4 files; search timed out after 1\.\d+s — narrow the path or glob\]$/);
    // What was counted is shown: the four files before the held one.
    expect(text.split('\n\n').slice(0, 4).map((group) => group.split('\n')[0])).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt']);
    expect(text).not.toContain('f4.txt');
  });

  it('stops at a deadline that has already passed, on the worker path too, and says "at least"', async () => {
    await put('a.txt', 'tick\n');
    const result = await fixture.toolset.call('grep', { pattern: 'tick' }, { callId: 'late', signal: new AbortController().signal, deadline: Date.now() - 1, sandboxPolicy: fixture.policy() });
    expect(ToolResult.text(result)).toBe('No matches for /tick/ in .\n[at least 0 matching lines in 0 files; search timed out after 0s — narrow the path or glob]');
  });

  it('skips binary files (a NUL byte in the first 64 KiB) and stops at a later NUL', async () => {
    await put('binary.bin', Buffer.concat([Buffer.from('needle first\n'), Buffer.from([0]), Buffer.from('needle after\n')]));
    const late = Buffer.concat([Buffer.from('needle early\n'), Buffer.alloc(70_000, 'x'), Buffer.from('\nneedle before nul'), Buffer.from([0]), Buffer.from('needle after nul\n')]);
    await put('late-nul.txt', late);
    await put('text.txt', 'needle\n');
    expect(await fixture.text('grep', { pattern: 'needle' })).toBe('late-nul.txt\n1:needle early\n3:needle before nul\n\ntext.txt\n1:needle');
  });

  it('sniffs byte order marks as ripgrep does: a UTF-8 BOM is dropped, UTF-16 with a BOM is searched as text', async () => {
    const text = 'needle one\nno\n\u00e9 needle \u{1F600}\n';
    const utf16be = Buffer.from(text, 'utf16le');
    utf16be.swap16();
    await put('a-utf8-bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    await put('b-utf16le.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    await put('c-utf16be.txt', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]));
    await put('d-utf16-no-bom.txt', Buffer.from(text, 'utf16le')); // NUL bytes, no BOM: binary
    const found = '1:needle one\n3:\u00e9 needle \u{1F600}';
    expect(await fixture.text('grep', { pattern: '^needle|needle \\S+$' })).toBe(`a-utf8-bom.txt\n${found}\n\nb-utf16le.txt\n${found}\n\nc-utf16be.txt\n${found}`);
    // Read in 8 MiB chunks through a host file system: the emoji's surrogate pair is split between
    // two reads (BOM + 2,097,151 lines of 4 bytes + the high surrogate = 8 MiB exactly).
    const hosted = await other({ filesystem: interceptingFileSystem(() => undefined) });
    const big = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${'x\n'.repeat(2_097_151)}\u{1F600} needle\n`, 'utf16le')]);
    expect(big.subarray(8 * 1024 * 1024 - 2, 8 * 1024 * 1024 + 2)).toEqual(Buffer.from('\u{1F600}', 'utf16le'));
    await put('big-utf16le.txt', big, hosted.workspace);
    expect(await hosted.text('grep', { pattern: 'needle' })).toBe('big-utf16le.txt\n2097152:\u{1F600} needle');
  });

  it('skips a file with a line over 64 MiB', async () => {
    const big = Buffer.alloc(64 * 1024 * 1024 + 10, 'a');
    big.write('needle', 100);
    await put('huge.txt', Buffer.concat([Buffer.from('needle on line one\n'), big, Buffer.from('\nneedle at the end\n')]));
    await put('small.txt', 'needle\n');
    expect(await fixture.text('grep', { pattern: 'needle' })).toBe('small.txt\n1:needle');
    // A large file whose lines are all short is searched.
    const manyLines = Buffer.alloc(70 * 1024 * 1024, 'b');
    for (let offset = 1023; offset < manyLines.length; offset += 1024) manyLines[offset] = 10;
    manyLines.write('needle', 70 * 1024 * 1024 - 100);
    await put('huge.txt', manyLines);
    expect(await fixture.text('grep', { pattern: 'needle', outputMode: 'count' })).toBe('huge.txt:1\nsmall.txt:1');
    expect(await fixture.text('grep', { pattern: 'needle', path: 'huge.txt' })).toBe(`huge.txt\n71680:${'b'.repeat(924)}needle${'b'.repeat(93)}`);
  });

  it('(a|aa)*b against a 1 MiB line of "a" finishes (RE2 runs in linear time)', async () => {
    await put('aaa.txt', `${'a'.repeat(1024 * 1024)}\n`);
    const result = await fixture.toolset.call('grep', { pattern: '(a|aa)*b' }, { callId: 'linear', signal: AbortSignal.timeout(120_000), sandboxPolicy: fixture.policy() });
    expect(ToolResult.text(result)).toBe('No matches for /(a|aa)*b/ in .');
    await put('aaa.txt', `${'a'.repeat(1024 * 1024)}b\n`);
    const found = await fixture.toolset.call('grep', { pattern: '(a|aa)*b', outputMode: 'count' }, { callId: 'linear2', signal: AbortSignal.timeout(120_000), sandboxPolicy: fixture.policy() });
    expect(ToolResult.text(found)).toBe('aaa.txt:1');
  });

  it('understands Rust regex syntax: flags, \\b, \\p{L}, POSIX classes, Unicode classes', async () => {
    await put('t.txt', ['Hello World', 'hello world', 'helloworld', 'ÄÖÜ straße', 'tab\there', 'x1 y22 z333', 'résumé', 'end'].join('\n'));
    const grep = async (pattern: string) => fixture.text('grep', { pattern, outputMode: 'content' });
    expect(await grep('(?i)HELLO world')).toBe('t.txt\n1:Hello World\n2:hello world');
    expect(await grep('^hello')).toBe('t.txt\n2:hello world\n3:helloworld');
    expect(await grep('(?m)^end$')).toBe('t.txt\n8:end');
    expect(await grep('(?s)hello.world')).toBe('t.txt\n2:hello world');
    expect(await grep('\\bworld\\b')).toBe('t.txt\n2:hello world');
    expect(await grep('^\\p{Lu}+ ')).toBe('t.txt\n4:ÄÖÜ straße');
    expect(await grep('^[[:alpha:]]+\\t')).toBe('t.txt\n5:tab\there');
    expect(await grep('\\d{3}')).toBe('t.txt\n6:x1 y22 z333');
    expect(await grep('^\\w+$')).toBe('t.txt\n3:helloworld\n7:résumé\n8:end');
    expect(await grep('(?x) hello \\  world  # verbose')).toBe('t.txt\n2:hello world');
    expect(await grep('r\\u{E9}sum')).toBe('t.txt\n7:résumé');
    expect(await grep('[^a-z ]+')).toContain('1:Hello World');
  });

  it('refuses lookaround and backreferences with invalid_arguments saying what the syntax allows', async () => {
    await put('t.txt', 'abcabc\n');
    for (const pattern of ['foo(?=bar)', 'foo(?!bar)', '(?<=a)b', '(?<!a)b', '(abc)\\1', '(?P<x>a)\\k<x>']) {
      const result = await fixture.call('grep', { pattern });
      expect(result.error?.code, pattern).toBe('invalid_arguments');
      expect(ToolResult.text(result), pattern).toMatch(/(lookahead|lookbehind|backreferences).* not supported\..*no lookaround and no backreferences/);
    }
    const broken = await fixture.call('grep', { pattern: 'a(b' });
    expect(broken.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(broken)).toContain('unclosed group');
    const newline = await fixture.call('grep', { pattern: 'a\\nb' });
    expect(ToolResult.text(newline)).toContain('grep matches one line at a time');
  });

  it('applies the glob relative to the search root', async () => {
    await put('desktop/src/a.ts', 'hit\n');
    await put('desktop/src/deep/b.ts', 'hit\n');
    await put('desktop/src/c.js', 'hit\n');
    await put('desktop/other/d.ts', 'hit\n');
    await put('src/e.ts', 'hit\n');
    const grep = (input: object) => fixture.text('grep', { pattern: 'hit', outputMode: 'files_with_matches', ...input });
    expect(await grep({ path: 'desktop', glob: 'src/**/*.ts' })).toBe('desktop/src/a.ts\ndesktop/src/deep/b.ts');
    expect(await grep({ path: 'desktop', glob: '*.ts' })).toBe('desktop/other/d.ts\ndesktop/src/a.ts\ndesktop/src/deep/b.ts');
    expect(await grep({ glob: '*.js' })).toBe('desktop/src/c.js');
    expect(await grep({ glob: '*.py' })).toBe('No matches for /hit/ in .');
  });

  it('respects .gitignore in a repository, skips hidden files and links, searches an explicit file', async () => {
    await mkdir(join(fixture.workspace, '.git'));
    await put('.gitignore', 'build/\n*.log\n!keep.log\n/top.txt\n');
    await put('build/out.txt', 'hit\n');
    await put('app.log', 'hit\n');
    await put('keep.log', 'hit\n');
    await put('top.txt', 'hit\n');
    await put('sub/top.txt', 'hit\n');
    await put('sub/.gitignore', '*.md\n');
    await put('sub/x.md', 'hit\n');
    await put('y.md', 'hit\n');
    await put('.hidden/z.txt', 'hit\n');
    await put('.dot.txt', 'hit\n');
    await put('outside-target.txt', 'hit\n', fixture.outside);
    const { symlink } = await import('node:fs/promises');
    await symlink(join(fixture.outside, 'outside-target.txt'), join(fixture.workspace, 'link.txt'));
    await symlink(fixture.outside, join(fixture.workspace, 'linked-dir'));
    expect(await fixture.text('grep', { pattern: 'hit', outputMode: 'files_with_matches' })).toBe('keep.log\nsub/top.txt\ny.md');
    expect(await fixture.text('grep', { pattern: 'hit', path: 'app.log' })).toBe('app.log\n1:hit');
    expect(await fixture.text('grep', { pattern: 'hit', path: 'build', outputMode: 'files_with_matches' })).toBe('build/out.txt');
  });

  it('acc_10b credential paths are never listed or read by grep', async () => {
    await put('secrets/token.txt', 'hit\n');
    await put('public.txt', 'hit\n');
    const policy = fixture.policy({ credentialPaths: [join(fixture.workspace, 'secrets')] });
    const all = await fixture.call('grep', { pattern: 'hit' }, { policy });
    expect(ToolResult.text(all)).toBe('public.txt\n1:hit');
    const direct = await fixture.call('grep', { pattern: 'hit', path: 'secrets' }, { policy });
    expect(direct.status).toBe('denied');
    expect(direct.error?.code).toBe('permission_denied');
    const file = await fixture.call('grep', { pattern: 'hit', path: 'secrets/token.txt' }, { policy });
    expect(file.status).toBe('denied');
  });

  it('acc_10b on a case-insensitive file system a credential folder in other letters stays unread', async () => {
    // The folder above the credential folder differs in letter case too.
    await put('A/SECRETS/token.txt', 'hit\n');
    await put('public.txt', 'hit\n');
    const policy = fixture.policy({ credentialPaths: [join(fixture.workspace, 'a', 'secrets')], letterCase: 'insensitive' });
    expect(await fixture.text('grep', { pattern: 'hit' }, { policy })).toBe('public.txt\n1:hit');
    expect(await fixture.text('glob', { pattern: '**/*.txt' }, { policy })).toBe('public.txt');
  });

  it('reports no match, a missing path and cancellation plainly', async () => {
    await put('a.txt', 'x\n');
    expect(await fixture.text('grep', { pattern: 'absent', path: '.' })).toBe('No matches for /absent/ in .');
    const missing = await fixture.call('grep', { pattern: 'x', path: 'nope' });
    expect(missing.status).toBe('failed');
    expect(ToolResult.text(missing)).toContain('nope');
    const controller = new AbortController();
    controller.abort();
    const cancelled = await fixture.call('grep', { pattern: 'x' }, { signal: controller.signal });
    expect(cancelled.status).toBe('cancelled');
  });

  it('without a spill directory the footer names no file', async () => {
    const bare = await other({ spill: false });
    await put('a.txt', lines(60, 1, 'hit'), bare.workspace);
    const text = await bare.text('grep', { pattern: 'hit' });
    expect(text.split('\n').at(-1)).toBe('[showing 50 of 60 matching lines in 1 file]');
    expect(text.split('\n').at(-3)).toBe('(+10 more matching lines in this file)');
  });

  it('searches on the calling thread with a host file system, with the same results', async () => {
    const hosted = await other({ filesystem: interceptingFileSystem(() => undefined) });
    for (let file = 0; file < 12; file += 1) await put(`f${String(file).padStart(2, '0')}.txt`, lines(160, 2, 'hit'), hosted.workspace);
    const result = await hosted.call('grep', { pattern: 'hit' }, { callId: 'hosted' });
    const text = ToolResult.text(result);
    expect(text.split('\n').at(-1)).toBe('[showing 250 of 960 matching lines in 12 files; full list saved to ~/.openwork/spill/session-1/hosted.txt]');
    expect(text.split('\n\n').slice(0, 5).map((group) => group.split('\n')[0])).toEqual(['f00.txt', 'f01.txt', 'f02.txt', 'f03.txt', 'f04.txt']);
    const full = (await readFile(spillPath('hosted', hosted), 'utf8')).trimEnd().split('\n');
    expect(full).toHaveLength(960);
    expect(full[80]).toBe('f01.txt:2:line 2 hit');
  });
});
