import { descriptorPathsAvailable } from './descriptor-paths.js';
import { DescriptorFolder } from './descriptor-folder.js';
import type { WalkPurpose } from './open-folder-no-follow.js';
import { PathFolder } from './path-folder.js';

/**
 * The folder a write happens in, held from the moment it was checked (architecture §3.7 "Races").
 * On Linux the folder is an open descriptor reached without following links, and every later
 * operation names its entries through that descriptor, so a folder replaced by a link meanwhile
 * cannot redirect them; elsewhere (macOS) the entries are named by path and only re-checked.
 */
export interface CheckedFolder {
  /** The canonical path the caller checked. */
  readonly path: string;
  /** A path naming the folder itself (to list it). */
  readonly ownPath: string;
  /** A path naming the entry `name` (one component) of this very folder. */
  pathOf(name: string): string;
  /** `undefined` while `path` still leads, without links, to this folder; otherwise why not, in words. */
  whyMoved(): Promise<string | undefined>;
  /** fsync the folder, so a rename in it survives a power loss; best effort. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** Opens the canonical folder `folder` for the operation `purpose` (making missing folders on the way with `create`). */
export async function openCheckedFolder(folder: string, purpose: WalkPurpose, create = false): Promise<CheckedFolder> {
  return (await descriptorPathsAvailable()) ? DescriptorFolder.open(folder, purpose, create) : PathFolder.open(folder, purpose, create);
}
