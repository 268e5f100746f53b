import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { interceptingFileSystem } from '../test-support/intercepting-file-system.js';
import { searchWorkersRunning, useCompiledSearchWorkers } from './test-support/compiled-search-workers.js';

let fixture: BuiltinsFixture;
const extraFixtures: BuiltinsFixture[] = [];
// glob dates its matches on the search workers (search performance): the tests run them from current sources.
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
  for (const extra of extraFixtures.splice(0)) await extra.cleanup();
});

async function put(relative: string, mtimeSeconds?: number, base = fixture.workspace): Promise<void> {
  const path = join(base, relative);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, relative);
  if (mtimeSeconds !== undefined) await utimes(path, mtimeSeconds, mtimeSeconds);
}

describe('glob (§7.7)', () => {
  it('acc_24_returns_the_newest_hundred_with_an_exact_total', async () => {
    // 150 matching files; the modification times are a permutation unrelated to the walk order.
    const base = 1_700_000_000;
    const names = Array.from({ length: 150 }, (_, index) => `src/m${String(index).padStart(3, '0')}.rs`);
    const mtimeOf = (index: number) => base + ((index * 37) % 150) * 60;
    for (const [index, name] of names.entries()) await put(name, mtimeOf(index));
    await put('src/readme.md', base + 10_000_000);
    await put('src/nested', base);
    const result = await fixture.call('glob', { pattern: '**/*.rs' }, { callId: 'acc24' });
    const [body, footer] = ToolResult.text(result).split('\n\n');
    const newestFirst = [...names.keys()].sort((left, right) => mtimeOf(right) - mtimeOf(left)).map((index) => names[index]);
    expect(body!.split('\n')).toEqual(newestFirst.slice(0, 100));
    expect(footer).toBe('[showing the 100 most recently modified of 150 files; full list saved to ~/.openwork/spill/session-1/acc24.txt]');
    // The full list is in walk order (names in code point order).
    const full = await readFile(join(fixture.openworkHome, 'spill', 'session-1', 'acc24.txt'), 'utf8');
    expect(full).toBe(`${names.join('\n')}\n`);
  });

  it('matches relative to path, files only, no footer under the cap, and no spill file', async () => {
    await put('desktop/src/a.ts', 100);
    await put('desktop/src/b/c.ts', 300);
    await put('desktop/x.ts', 200);
    await mkdir(join(fixture.workspace, 'desktop', 'src', 'dir.ts'));
    const result = await fixture.call('glob', { pattern: 'src/**/*.ts', path: 'desktop' }, { callId: 'few' });
    expect(ToolResult.text(result)).toBe('desktop/src/b/c.ts\ndesktop/src/a.ts');
    await expect(readFile(join(fixture.openworkHome, 'spill', 'session-1', 'few.txt'))).rejects.toThrow();
    expect(await fixture.text('glob', { pattern: '*.ts', path: 'desktop' })).toBe('desktop/x.ts');
    expect(await fixture.text('glob', { pattern: '*.py' })).toBe('No files match *.py in .');
  });

  it('ranks files whose time cannot be read last', async () => {
    const failing = interceptingFileSystem((operation, args) => {
      if (operation === 'lstat' && String(args[0]).endsWith('/b.txt')) throw Object.assign(new Error('gone'), { code: 'ENOENT' });
    });
    const dated = await createFixture({ filesystem: failing });
    extraFixtures.push(dated);
    await put('a.txt', 100, dated.workspace);
    await put('b.txt', 999, dated.workspace);
    await put('c.txt', 50, dated.workspace);
    expect(await dated.text('glob', { pattern: '*.txt' })).toBe('a.txt\nc.txt\nb.txt');
  });

  it('dates matches on the search workers (issue 25) with the answer of the calling thread: more files than one batch, ties in walk order', async () => {
    const same = await createFixture({ filesystem: interceptingFileSystem(() => undefined) });
    extraFixtures.push(same);
    // 1,300 files (three batches of 512) in 26 folders; times repeat, so ties are broken by walk order.
    for (const base of [fixture.workspace, same.workspace]) {
      for (let index = 0; index < 1300; index += 1) await put(`d${String(index % 26).padStart(2, '0')}/f${index}.txt`, 1_700_000_000 + ((index * 7919) % 97) * 60, base);
    }
    expect(await searchWorkersRunning()).toBe(true);
    const local = await fixture.call('glob', { pattern: '**/*.txt' }, { callId: 'workers' });
    const hosted = await same.call('glob', { pattern: '**/*.txt' }, { callId: 'workers' });
    expect(ToolResult.text(local)).toBe(ToolResult.text(hosted));
    expect(ToolResult.text(local).split('\n\n')[0]!.split('\n')).toHaveLength(100);
    const list = (home: string) => readFile(join(home, 'spill', 'session-1', 'workers.txt'), 'utf8');
    expect(await list(fixture.openworkHome)).toBe(await list(same.openworkHome));
  });

  it('timeout_reports_at_least_the_counted_files', async () => {
    // A real walk, cut short: the call's deadline is the limit, and listing the third folder is
    // held until it has passed, so exactly the files of the first two count.
    let deadline = 0;
    const slow = interceptingFileSystem(async (operation, args) => {
      if (operation === 'readdir' && String(args[0]).endsWith('/c')) {
        while (Date.now() <= deadline + 5) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    const timed = await createFixture({ filesystem: slow });
    extraFixtures.push(timed);
    for (const folder of ['a', 'b', 'c', 'd']) for (let file = 0; file < 60; file += 1) await put(`${folder}/f${String(file).padStart(2, '0')}.txt`, undefined, timed.workspace);
    deadline = Date.now() + 1500;
    const result = await timed.toolset.call('glob', { pattern: '**/*.txt' }, { callId: 'slow', signal: new AbortController().signal, deadline, sandboxPolicy: timed.policy() });
    const text = ToolResult.text(result);
    const footer = text.split('\n\n')[1]!.split('\n');
    expect(footer[0]).toBe('[showing the 100 most recently modified of the files found so far; list so far saved to ~/.openwork/spill/session-1/slow.txt]');
    expect(footer[1]).toMatch(/^\[at least 120 files; search timed out after 1\.\d+s — narrow the path or pattern\]$/);
    const full = await readFile(join(timed.openworkHome, 'spill', 'session-1', 'slow.txt'), 'utf8');
    expect(full.trimEnd().split('\n')).toHaveLength(120);
    expect(text).not.toMatch(/^[cd]\//m);
  });

  it('acc_10b credential paths are never listed by glob', async () => {
    await put('secrets/key.pem');
    await put('public.pem');
    const policy = fixture.policy({ credentialPaths: [join(fixture.workspace, 'secrets')] });
    expect(await fixture.text('glob', { pattern: '**/*.pem' }, { policy })).toBe('public.pem');
    const direct = await fixture.call('glob', { pattern: '*', path: 'secrets' }, { policy });
    expect(direct.status).toBe('denied');
  });

  it('says what to do for a file path and a cancelled call', async () => {
    await put('a.txt');
    const file = await fixture.call('glob', { pattern: '*', path: 'a.txt' });
    expect(file.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(file)).toBe('a.txt is not a directory; glob searches a directory. Use read to see a file.');
    const controller = new AbortController();
    controller.abort();
    expect((await fixture.call('glob', { pattern: '*' }, { signal: controller.signal })).status).toBe('cancelled');
  });
});
