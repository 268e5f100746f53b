import { constants } from 'node:fs';
import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Opens (creates or truncates) a spill file for writing. The directory is created 0700 and the
 * file 0600 (results can hold secrets); `O_NOFOLLOW` refuses a symbolic link planted at the name.
 * The spill directory is hard-protected (architecture §3.2), so tools and sandboxed processes
 * cannot write it; only this process does.
 */
export async function openSpillFile(path: string): Promise<FileHandle> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  return open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
}

/** Deletes a spill file that failed or is not needed; a file that is already gone is fine. */
export async function removeSpillFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch {
    // Never created, or already removed.
  }
}
