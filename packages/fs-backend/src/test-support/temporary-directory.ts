import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir (real path, so symlinked /tmp does not confuse tests), and its removal. */
export async function createTemporaryDirectory(): Promise<{ readonly path: string; remove(): Promise<void> }> {
  const path = await realpath(await mkdtemp(join(tmpdir(), 'ow-fs-backend-')));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
