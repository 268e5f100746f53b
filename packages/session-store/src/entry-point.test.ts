import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as publicApi from './index.js';

const sourceDirectory = dirname(fileURLToPath(import.meta.url));

/** Relative modules `file` imports, transitively, as paths relative to src. */
async function importGraph(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = await readFile(join(sourceDirectory, file), 'utf8');
  for (const match of source.matchAll(/from '(\.[^']+)\.js'/g)) {
    await importGraph(join(dirname(file), `${match[1]}.ts`), seen);
  }
  return seen;
}

describe('the main entry point', () => {
  it('never loads vitest or the contract suite (vitest is a peer of the /contract subpath only)', async () => {
    const files = await importGraph('index.ts');
    expect([...files].some((file) => file.startsWith('contract'))).toBe(false);
    for (const file of files) expect(await readFile(join(sourceDirectory, file), 'utf8')).not.toMatch(/from 'vitest'/);
  });

  it('errors keep their identity through isInstance and carry a stable code', () => {
    const error = new publicApi.UndoneConflictError('s', 'c', true);
    expect(publicApi.SessionStoreError.isInstance(error)).toBe(true);
    expect(publicApi.UndoneConflictError.isInstance(error)).toBe(true);
    expect(publicApi.ChangeNotFoundError.isInstance(error)).toBe(false);
    expect(publicApi.hasSessionStoreErrorCode(error, 'undone_conflict')).toBe(true);
    // A copy of the error from another copy of the package: same registered symbol, no shared class.
    const foreign = Object.assign(new Error('x'), { [Symbol.for('openwork.session-store.error')]: true, code: 'undone_conflict' });
    expect(publicApi.UndoneConflictError.isInstance(foreign)).toBe(true);
    expect(publicApi.SessionStoreError.isInstance(new Error('plain'))).toBe(false);
  });
});
