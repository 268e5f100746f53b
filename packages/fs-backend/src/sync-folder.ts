import { constants } from 'node:fs';
import { open } from './byte-exact-fs.js';

/**
 * fsync a folder, so that a rename into it survives a crash: opened read-only at `openPath` (for a
 * `DescriptorFolder` its `/proc/self/fd` path: an `O_PATH` descriptor cannot be synced itself, and
 * the folder is never reopened by its name). Best effort: file systems and platforms without
 * directory fsync (EINVAL, EISDIR, EPERM) are not an error.
 */
export async function syncFolder(openPath: string): Promise<void> {
  const handle = await open(openPath, constants.O_RDONLY | constants.O_DIRECTORY).catch(() => undefined);
  try {
    await handle?.sync();
  } catch {
    // no directory fsync here
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
