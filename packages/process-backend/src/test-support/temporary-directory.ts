import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir; `remove` deletes it and everything in it. */
export async function temporaryDirectory(): Promise<{ readonly path: string; remove(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'ow-process-backend-'));
  return { path: directory, remove: () => rm(directory, { recursive: true, force: true }) };
}
