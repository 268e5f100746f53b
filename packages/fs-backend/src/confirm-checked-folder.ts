import type { BigIntStats } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { FileSystemError } from './file-system-error.js';

/**
 * The folder a write was checked in (§6.2: the caller checked the canonical path) must still be
 * that folder: `folder` canonicalises to itself (no component was replaced by a symbolic link since
 * the check), and, once the temp file exists, the entry at `tempPath` is still the file this write
 * created (`created`, see `isSameFile`). Called when the write starts and again just
 * before the rename; throws `invalid_path` otherwise, and nothing is renamed.
 */
export async function confirmCheckedFolder(path: string, folder: string, temp?: { readonly path: string; readonly created: BigIntStats }): Promise<void> {
  const refuse = (why: string): never => {
    throw new FileSystemError({
      code: 'invalid_path',
      path,
      message: `Cannot write ${path}: ${why}; nothing was written. Resolve the path again (a canonical path, without symbolic links) and retry.`,
    });
  };
  let real: string;
  try {
    real = await realpath(folder);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // A folder that is missing when the write starts is reported by the write itself (create it first).
    if (code === 'ENOENT' && temp === undefined) return;
    return refuse(`its folder ${folder} cannot be resolved any more (${code ?? String(error)})`);
  }
  if (real !== folder) refuse(`its folder ${folder} now resolves to ${real} (a folder on the way is a symbolic link)`);
  if (temp === undefined) return;
  if (!isSameFile(await lstat(temp.path, { bigint: true }).catch(() => undefined), temp.created)) {
    refuse(`the temporary file ${temp.path} was replaced while the content was being written`);
  }
}

/**
 * The same file as when it was written: device, inode, size and change time (nanoseconds). A
 * replacement that reuses a freed inode number within the same clock tick is not told apart.
 */
export function isSameFile(now: BigIntStats | undefined, then: BigIntStats): boolean {
  return now !== undefined && now.dev === then.dev && now.ino === then.ino && now.size === then.size && now.ctimeNs === then.ctimeNs;
}
