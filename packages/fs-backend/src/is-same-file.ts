import type { BigIntStats } from 'node:fs';

/**
 * The same file as when it was written: device, inode, size and change time (nanoseconds). A
 * replacement that reuses a freed inode number within the same clock tick is not told apart.
 */
export function isSameFile(now: BigIntStats | undefined, then: BigIntStats): boolean {
  return now !== undefined && now.dev === then.dev && now.ino === then.ino && now.size === then.size && now.ctimeNs === then.ctimeNs;
}

/** The same inode (a rename changes the change time, not the inode). */
export function isSameInode(now: { readonly dev: bigint; readonly ino: bigint } | undefined, then: { readonly dev: bigint; readonly ino: bigint }): boolean {
  return now !== undefined && now.dev === then.dev && now.ino === then.ino;
}
