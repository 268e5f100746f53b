import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir (real path), and its removal. */
export async function createTemporaryDirectory(): Promise<{ readonly path: string; remove(): Promise<void> }> {
  const path = await realpath(await mkdtemp(join(tmpdir(), 'ow-store-sqlite-')));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
