import type { BigIntStats } from 'node:fs';
import { lstat, mkdir, realpath } from './byte-exact-fs.js';
import { join } from 'node:path';
import type { CheckedFolder } from './checked-folder.js';
import { describeFolderNow, whyFolderMoved } from './describe-folder-now.js';
import { syncFolder } from './sync-folder.js';
import { FileSystemError } from './file-system-error.js';
import type { WalkPurpose } from './open-folder-no-follow.js';
import { toFileSystemError } from './to-file-system-error.js';

/**
 * {@link CheckedFolder} where there are no descriptor paths (macOS: no /proc/self/fd): entries are
 * named by path, and the folder is only re-checked (canonical, same device and inode) when asked.
 * A process that replaces a folder on the way between that check and the use still wins (README
 * "Known limits").
 */
export class PathFolder implements CheckedFolder {
  readonly path: string;
  readonly #identity: BigIntStats;

  private constructor(path: string, identity: BigIntStats) {
    this.path = path;
    this.#identity = identity;
  }

  static async open(folder: string, purpose: WalkPurpose, create: boolean): Promise<PathFolder> {
    try {
      if (create) await mkdir(folder, { recursive: true });
      const identity = await lstat(folder, { bigint: true });
      if (!identity.isDirectory() && !identity.isSymbolicLink()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      if (identity.isSymbolicLink() || (await realpath(folder)) !== folder) {
        throw new FileSystemError({
          code: 'invalid_path',
          path: purpose.path,
          message: `Cannot ${purpose.operation} ${purpose.path}: ${await describeFolderNow(folder)}; nothing was changed. Resolve the path again (a canonical path, without symbolic links) and retry.`,
        });
      }
      return new PathFolder(folder, identity);
    } catch (error) {
      throw toFileSystemError(error, purpose.operation, purpose.path);
    }
  }

  get ownPath(): string {
    return this.path;
  }

  pathOf(name: string): string {
    return join(this.path, name);
  }

  whyMoved(): Promise<string | undefined> {
    return whyFolderMoved(this.path, this.#identity);
  }

  sync(): Promise<void> {
    return syncFolder(this.path);
  }

  async close(): Promise<void> {
    // Nothing is held.
  }
}
