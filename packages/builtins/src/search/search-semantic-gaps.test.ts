import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { useCompiledSearchWorkers } from './test-support/compiled-search-workers.js';

// The search's semantic gaps, each a test named after it, with ripgrep as the oracle where it has an
// answer (`rg` is on PATH here, as in search-walk-oracle.test.ts).

const run = promisify(execFile);
let fixture: BuiltinsFixture;
let stopWorkers: () => Promise<void>;
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
});

async function put(relative: string, content: string | Buffer): Promise<void> {
  const path = join(fixture.workspace, relative);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

/** `rg` run in the workspace; stdout, or `undefined` when it refused (exit 2) with its stderr. */
async function rg(args: readonly string[]): Promise<{ stdout: string; refused: string | undefined }> {
  try {
    const { stdout } = await run('rg', [...args], { cwd: fixture.workspace });
    return { stdout, refused: undefined };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (failed.code === 1) return { stdout: '', refused: undefined };
    return { stdout: '', refused: failed.stderr ?? String(error) };
  }
}

/** `path:count` lines, sorted, as both `rg -c` and our count mode print them. */
function sortedLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('No matches') && !line.startsWith('No files'))
    .map((line) => line.replace(/^\.\//, ''))
    .sort();
}

// Words, digits and spaces from outside ASCII next to ASCII ones: where Rust's Unicode classes
// and RE2's ASCII ones disagree.
const UNICODE_LINES = [
  '１２３foo', 'foo', 'x foo y', 'éfoo', 'fooé', 'foo_bar', 'foo-bar', 'naïve foo', 'straße foo', 'Straße',
  'ＡＢＣfoo', 'foo٣', '٣٤٥', 'a\u00A0foo', 'a\u3000foo', 'a\u2003b', 'tab\tfoo', 'ΑΒΓ foo', 'résumé', 'ǅfoo',
  'a\u0301foo', 'foo\u200Dx', '123', '１２３', 'x_y', 'é é', 'foo.', '.foo', 'Ωfoo', 'foo1',
];
const UNICODE_PATTERNS = [
  '\\bfoo\\b', '\\bfoo', 'foo\\b', '\\Bfoo', 'foo\\B', '(?-u)\\bfoo\\b', '(?-u)\\Bfoo', '\\b\\w+\\b', '\\w+',
  '^\\w+$', '(?-u)^\\w+$', '\\d', '^\\d+$', '(?-u)\\d', '\\s', '(?-u)\\s', '\\S\\s\\S', '[\\W]foo', '[^\\W]foo',
  '[\\S]foo', '[^\\S]foo', '[\\D]', '[^\\D]', '(?i)\\bSTRASSE\\b', '(?i)\\bstraße\\b', '\\b\\d+\\b', 'x\\b', '\\b.\\b',
  '(?-u:\\b)foo', '[^\\W\\d]+foo',
];

describe('grep and glob: the semantic gaps of issue 25', () => {
  it('unicode_word_boundary_and_classes_count_as_in_ripgrep', async () => {
    // One line per file, so every file's count is that line's verdict.
    await Promise.all(UNICODE_LINES.map((line, index) => put(`u${String(index).padStart(2, '0')}.txt`, `${line}\n`)));
    expect(await fixture.text('grep', { pattern: '\\bfoo\\b', outputMode: 'files_with_matches' })).not.toContain('u00.txt');
    for (const pattern of UNICODE_PATTERNS) {
      const ours = sortedLines(await fixture.text('grep', { pattern, outputMode: 'count' }));
      const theirs = await rg(['-c', '--no-messages', '--', pattern, '.']);
      expect(theirs.refused, pattern).toBeUndefined();
      expect(ours, pattern).toEqual(sortedLines(theirs.stdout));
    }
  });

  it('unicode_word_boundary_is_ascii_with_the_u_flag_off', async () => {
    await put('digits.txt', '１２３foo\n');
    expect(await fixture.text('grep', { pattern: '\\bfoo\\b' })).toBe('No matches for /\\bfoo\\b/ in .');
    expect(await fixture.text('grep', { pattern: '(?-u)\\bfoo\\b' })).toBe('digits.txt\n1:１２３foo');
  });

  it('pattern_with_a_literal_line_break_is_refused_with_the_reason', async () => {
    await put('t.txt', 'a\nb\n');
    const result = await fixture.call('grep', { pattern: 'a\nb' });
    expect(result.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(result)).toMatch(/holds a line break \(at offset 1\), which can never match: grep matches one line at a time/);
    // ripgrep refuses it too; in verbose mode a line break is only white space, for both.
    expect((await rg(['-c', '--', 'a\nb', '.'])).refused).toMatch(/literal "\\n" is not allowed|not allowed in a regex/);
    expect(await fixture.text('grep', { pattern: '(?x)a\n|b' })).toBe('t.txt\n1:a\n2:b');
  });

  it('glob_with_a_leading_slash_is_anchored_to_the_search_root', async () => {
    for (const path of ['src/a.ts', 'src/b.json', 'lib/src/c.ts', 'foo/d.ts', 'lib/foo/e.ts', 'top.ts', 'lib/top.ts']) await put(path, 'hit\n');
    const grepFiles = async (glob: string) => sortedLines(await fixture.text('grep', { pattern: 'hit', outputMode: 'files_with_matches', glob }));
    const rgFiles = async (glob: string) => sortedLines((await rg(['--files', '-g', glob, '.'])).stdout);
    for (const glob of ['/src/*.ts', '/top.ts', '/*.ts', '!/foo/**', '!foo/**', '!*.json', '/src/**', '*.ts']) {
      expect(await grepFiles(glob), glob).toEqual(await rgFiles(glob));
    }
    // glob's own pattern is always the whole relative path; a leading / anchors it the same way.
    const globFiles = async (pattern: string) => sortedLines(await fixture.text('glob', { pattern }));
    expect(await globFiles('/src/*.ts')).toEqual(['src/a.ts']);
    expect(await globFiles(`${fixture.workspace}/lib/**`)).toEqual(['lib/foo/e.ts', 'lib/src/c.ts', 'lib/top.ts']);
  });

  it('glob_with_a_leading_bang_lists_what_the_rest_does_not_match', async () => {
    for (const path of ['src/a.ts', 'src/b.json', 'foo/d.ts', 'top.ts']) await put(path, 'hit\n');
    const globFiles = async (pattern: string) => sortedLines(await fixture.text('glob', { pattern }));
    expect(await globFiles('!**/*.json')).toEqual(['foo/d.ts', 'src/a.ts', 'top.ts']);
    expect(await globFiles('!/foo/**')).toEqual(['src/a.ts', 'src/b.json', 'top.ts']);
    const lone = await fixture.call('glob', { pattern: '!' });
    expect(lone.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(lone)).toContain('a "!" needs a glob after it');
  });
});

/** Bytes this process has read through read(2) and its kind (worker threads included). */
function bytesReadSoFar(): number {
  const match = /^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
  return Number(match?.[1]);
}

describe.skipIf(process.platform !== 'linux')('grep files_with_matches (issue 25; /proc/self/io counts the bytes read)', () => {
  it('files_with_matches_stops_reading_a_file_at_its_first_match', async () => {
    // 8 MiB: below the 16 MiB up to which a file used to be read whole.
    const size = 8 * 1024 * 1024;
    await put('big.txt', `needle here\n${'x'.repeat(115)}\n`.repeat(size / 128));
    await fixture.text('grep', { pattern: 'warm', outputMode: 'files_with_matches' }); // the worker pool
    const before = bytesReadSoFar();
    expect(await fixture.text('grep', { pattern: 'needle', outputMode: 'files_with_matches' })).toBe('big.txt');
    const filesMode = bytesReadSoFar() - before;
    const between = bytesReadSoFar();
    expect(await fixture.text('grep', { pattern: 'needle', outputMode: 'count' })).toBe(`big.txt:${size / 128}`);
    const countMode = bytesReadSoFar() - between;
    // count needs every line; files_with_matches has its answer in the first 64 KiB.
    expect(countMode).toBeGreaterThanOrEqual(size);
    expect(filesMode).toBeLessThan(size / 4);
  });
});
