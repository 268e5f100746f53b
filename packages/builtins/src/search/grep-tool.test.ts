import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolResult } from '@openwork/tools-contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, type BuiltinsFixture } from '../test-support/builtins-fixture.js';
import { searchWorkersRunning, useCompiledSearchWorkers } from './test-support/compiled-search-workers.js';

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

describe('grep (§7.6)', () => {
  it('runs on worker threads', async () => {
    expect(await searchWorkersRunning()).toBe(true);
  });

  it('finds lines grouped by file', async () => {
    await put('a.txt', 'one foo\ntwo\nthree foo foo\n');
    await put('sub/b.txt', 'foo\n');
    expect(await fixture.text('grep', { pattern: 'foo' })).toBe('a.txt\n1:one foo\n3:three foo foo\n\nsub/b.txt\n1:foo');
  });
});
