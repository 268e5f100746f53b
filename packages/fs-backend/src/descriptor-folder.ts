import { constants, type BigIntStats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { CheckedFolder } from './checked-folder.js';
import { closeDescriptor, descriptorPath, statDescriptor } from './descriptor-paths.js';
import { describeFolderNow } from './describe-folder-now.js';
import { isSameInode } from './is-same-file.js';
import { openFolderNoFollow, type WalkPurpose } from './open-folder-no-follow.js';

/** {@link CheckedFolder} on Linux: an `O_PATH` descriptor reached with no-follow opens from `/`. */
export class DescriptorFolder implements CheckedFolder {
  readonly path: string;
  readonly #fd: number;
  readonly #identity: BigIntStats;
  readonly #purpose: WalkPurpose;

  private constructor(path: string, fd: number, identity: BigIntStats, purpose: WalkPurpose) {
    this.path = path;
    this.#fd = fd;
    this.#identity = identity;
    this.#purpose = purpose;
  }

  static async open(folder: string, purpose: WalkPurpose, create: boolean): Promise<DescriptorFolder> {
    const fd = await openFolderNoFollow(folder, purpose, create);
    try {
      return new DescriptorFolder(folder, fd, await statDescriptor(fd, { bigint: true }), purpose);
    } catch (error) {
      await closeDescriptor(fd);
      throw error;
    }
  }

  get ownPath(): string {
    return descriptorPath(this.#fd);
  }

  pathOf(name: string): string {
    return descriptorPath(this.#fd, name);
  }

  /** A fresh no-follow walk of `path` must reach the held folder (device and inode): nothing moved or replaced it. */
  async whyMoved(): Promise<string | undefined> {
    let fresh: number;
    try {
      fresh = await openFolderNoFollow(this.path, this.#purpose);
    } catch {
      return describeFolderNow(this.path);
    }
    try {
      if (isSameInode(await statDescriptor(fresh, { bigint: true }), this.#identity)) return undefined;
    } catch {
      // Cannot tell: treat it as moved.
    } finally {
      await closeDescriptor(fresh);
    }
    return describeFolderNow(this.path);
  }

  async sync(): Promise<void> {
    // An O_PATH descriptor cannot be synced: open the folder itself through it (never by path).
    const handle = await open(this.ownPath, constants.O_RDONLY | constants.O_DIRECTORY).catch(() => undefined);
    try {
      await handle?.sync();
    } catch {
      // EINVAL/EPERM on file systems without directory fsync.
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }

  close(): Promise<void> {
    return closeDescriptor(this.#fd);
  }
}
