import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { compileSourcesForChild } from '../test-support/compile-sources-for-child.js';
import { interceptingFileSystem } from '../test-support/intercepting-file-system.js';
import { SearchWorkerPool, setSearchWorkerEntry } from './search-worker-pool.js';

// A search worker can end in the middle of a call (out of memory, a native crash). These workers
// are the real ones, from the current sources, behind a first listener that ends the thread when
// the second message of a kind arrives — so the end falls in the middle of a call, every time.
let build: string;
const entries: Record<string, URL> = {};
let fixture: BuiltinsFixture;
const extraFixtures: BuiltinsFixture[] = [];

beforeAll(async () => {
  build = await compileSourcesForChild();
  for (const kind of ['files', 'stat']) {
    const path = join(build, 'search', `worker-ending-at-second-${kind}.js`);
    await writeFile(
      path,
      [
        "import { parentPort } from 'node:worker_threads';",
        'let seen = 0;',
        `parentPort.on('message', (message) => { if (message.type === '${kind}' && ++seen === 2) process.exit(1); });`,
        "await import('./search-worker.js');",
      ].join('\n'),
    );
    entries[kind] = pathToFileURL(path);
  }
  entries['normal'] = pathToFileURL(join(build, 'search', 'search-worker.js'));
});
afterAll(async () => {
  SearchWorkerPool.reset();
  await rm(build, { recursive: true, force: true });
});
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
  for (const extra of extraFixtures.splice(0)) await extra.cleanup();
});

async function put(relative: string, content: string, mtimeSeconds: number, base = fixture.workspace): Promise<void> {
  const path = join(base, relative);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
  await utimes(path, mtimeSeconds, mtimeSeconds);
}

describe('a search worker that ends during a call', () => {
  it('grep fails with execution_failed and says why; the next grep searches with new workers', async () => {
    setSearchWorkerEntry(entries['files']!);
    for (let index = 0; index < 400; index += 1) await put(`d${index % 8}/f${index}.txt`, `line\nneedle ${index}\n`, 1_700_000_000);
    const failed = await fixture.call('grep', { pattern: 'needle' });
    expect(failed.status).toBe('failed');
    expect(ToolResult.text(failed)).toMatch(/grep failed in a search worker: a search worker thread ended unexpectedly/);
    setSearchWorkerEntry(entries['normal']!);
    const again = await fixture.call('grep', { pattern: 'needle', outputMode: 'count' });
    expect(ToolResult.text(again)).toMatch(/^\[showing 250 of 400 files with matches, 400 matching lines/m);
  });

  it('glob still gives the answer of an uninterrupted call: the matches not dated yet are dated on the calling thread', async () => {
    setSearchWorkerEntry(entries['stat']!);
    const reference = await createFixture({ filesystem: interceptingFileSystem(() => undefined) });
    extraFixtures.push(reference);
    // 2,000 files: four batches of 512, the second of which never gets its answer.
    for (const base of [fixture.workspace, reference.workspace]) {
      for (let index = 0; index < 2000; index += 1) await put(`d${index % 16}/f${index}.txt`, '', 1_700_000_000 + ((index * 7919) % 1999) * 60, base);
    }
    const crashed = await fixture.call('glob', { pattern: '**/*.txt' }, { callId: 'crash' });
    const expected = await reference.call('glob', { pattern: '**/*.txt' }, { callId: 'crash' });
    expect(ToolResult.text(crashed)).toBe(ToolResult.text(expected));
    const list = (home: string) => readFile(join(home, 'spill', 'session-1', 'crash.txt'), 'utf8');
    expect(await list(fixture.openworkHome)).toBe(await list(reference.openworkHome));
    setSearchWorkerEntry(entries['normal']!);
  });
});
