import { constants, type BigIntStats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { CheckedFolder } from './checked-folder.js';
import { closeDescriptor, descriptorPath, statDescriptor } from './descriptor-paths.js';
import { whyFolderMoved } from './describe-folder-now.js';
import { openFolderNoFollow, type WalkPurpose } from './open-folder-no-follow.js';

/** {@link CheckedFolder} on Linux: an `O_PATH` descriptor reached with no-follow opens from `/`. */
export class DescriptorFolder implements CheckedFolder {
  readonly path: string;
  readonly #fd: number;
  readonly #identity: BigIntStats;

  private constructor(path: string, fd: number, identity: BigIntStats) {
    this.path = path;
    this.#fd = fd;
    this.#identity = identity;
  }

  static async open(folder: string, purpose: WalkPurpose, create: boolean): Promise<DescriptorFolder> {
    const fd = await openFolderNoFollow(folder, purpose, create);
    try {
      return new DescriptorFolder(folder, fd, await statDescriptor(fd, { bigint: true }));
    } catch (error) {
      closeDescriptor(fd);
      throw error;
    }
  }

  get ownPath(): string {
    return descriptorPath(this.#fd);
  }

  pathOf(name: string): string {
    return descriptorPath(this.#fd, name);
  }

  whyMoved(): Promise<string | undefined> {
    return whyFolderMoved(this.path, this.#identity);
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

  async close(): Promise<void> {
    closeDescriptor(this.#fd);
  }
}
