import { closeSync, constants, fstat, open, type BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';

/**
 * Linux's `O_PATH` (`010000000` on every architecture Node runs on; Node does not export it): a
 * descriptor that only names a folder. Opening one needs search permission alone, exactly like a
 * path walk, so a folder that can be walked but not listed does not refuse writes that worked by path.
 */
export const O_PATH = 0o10000000;

export const openDescriptor = promisify(open);
export const statDescriptor = promisify(fstat) as (fd: number, options: { bigint: true }) => Promise<BigIntStats>;
/**
 * Closes a descriptor this package opened. Synchronous: closing an `O_PATH` descriptor does no
 * I/O, and a round trip through libuv's thread pool per folder on the way would double a walk's
 * cost. A failure to close cannot be acted on.
 */
export function closeDescriptor(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // EBADF: nothing left to close.
  }
}

/**
 * The path that names `name` inside the folder `fd` holds, whatever is now at that folder's old
 * path: the kernel resolves `/proc/self/fd/<fd>` to the open folder itself (architecture §3.7
 * "Races"), so the lookup of `name` starts there and no link on the way is ever followed. Without
 * `name`: the folder itself.
 */
export function descriptorPath(fd: number, name?: string): string {
  return name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`;
}

let probed: Promise<boolean> | undefined;
let forced: boolean | undefined;

/** Whether descriptor paths work here: `/proc/self/fd/<fd>` of an opened `/` is `/` (Linux with /proc). Probed once. */
export function descriptorPathsAvailable(): Promise<boolean> {
  if (forced !== undefined) return Promise.resolve(forced);
  probed ??= probeDescriptorPaths();
  return probed;
}

/** Tests only: run the path fallback (macOS's) here, or go back to the probe with `undefined`. */
export function forceDescriptorPaths(available: boolean | undefined): void {
  forced = available;
}

async function probeDescriptorPaths(): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  let fd: number | undefined;
  try {
    fd = await openDescriptor('/', O_PATH | constants.O_DIRECTORY);
    const held = await statDescriptor(fd, { bigint: true });
    const named = await stat(descriptorPath(fd), { bigint: true });
    return held.dev === named.dev && held.ino === named.ino;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeDescriptor(fd);
  }
}
