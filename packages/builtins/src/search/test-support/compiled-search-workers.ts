import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileSourcesForChild } from '../../test-support/compile-sources-for-child.js';
import { SearchWorkerPool, setSearchWorkerEntry } from '../search-worker-pool.js';

/**
 * Tests run the TypeScript sources, but a worker thread needs JavaScript: transpile the current
 * sources (never a stale dist/) and point the pool at that copy of `search-worker.js`. Returns
 * the cleanup, which ends the pool and removes the copy.
 */
export async function useCompiledSearchWorkers(): Promise<() => Promise<void>> {
  const build = await compileSourcesForChild();
  setSearchWorkerEntry(pathToFileURL(join(build, 'search', 'search-worker.js')));
  return async () => {
    SearchWorkerPool.reset();
    await rm(build, { recursive: true, force: true });
  };
}

/** Whether grep will use worker threads in this process (the pool started). */
export async function searchWorkersRunning(): Promise<boolean> {
  const pool = await SearchWorkerPool.shared();
  return pool !== undefined && !pool.closed;
}
