import type { BigIntStats } from 'node:fs';
import type { CheckedFolder } from './checked-folder.js';
import { closeDescriptor, descriptorPath, statDescriptor } from './descriptor-paths.js';
import { whyFolderMoved } from './describe-folder-now.js';
import { syncFolder } from './sync-folder.js';
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

  sync(): Promise<void> {
    return syncFolder(this.ownPath);
  }

  async close(): Promise<void> {
    closeDescriptor(this.#fd);
  }
}
