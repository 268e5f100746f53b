import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from './byte-exact-fs.js';
import { FileSystemError } from './file-system-error.js';
import { toFileSystemError } from './to-file-system-error.js';

/** An open regular file and its size at opening. */
export interface OpenRegularFile {
  readonly handle: FileHandle;
  readonly size: number;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

/**
 * Opens `path` for reading and makes sure it is a regular file. `O_NONBLOCK` keeps a FIFO from
 * hanging the open; `noFollow` adds `O_NOFOLLOW`, so a symlink at the last component fails with
 * `symlink_loop` instead of being read through (the write target check, peers.md "Editing").
 * Errors name `namedPath` (the caller's path, when `path` is a descriptor path of its folder).
 */
export async function openRegularFile(path: string, operation: string, noFollow = false, namedPath = path): Promise<OpenRegularFile> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | (noFollow ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    throw toFileSystemError(error, operation, namedPath);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      const directory = stats.isDirectory();
      throw new FileSystemError({
        code: directory ? 'is_a_directory' : 'not_a_regular_file',
        path: namedPath,
        message: directory
          ? `Cannot ${operation} ${namedPath}: it is a directory.`
          : `Cannot ${operation} ${namedPath}: it is not a regular file (a device, FIFO or socket).`,
      });
    }
    return { handle, size: stats.size, mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw toFileSystemError(error, operation, namedPath);
  }
}
