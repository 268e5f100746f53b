import * as fs from 'node:fs';

/** The machine's shared-memory folder: on the host only (bwrap's `--dev /dev` gives every sandbox a fresh one). */
const sharedMemory = '/dev/shm';

/**
 * Where the mount-point registry lives unless `BubblewrapBackendOptions.registryDirectory` says
 * otherwise (architecture §3.7): `/dev/shm/openwork-<uid>/mount-points`, the same for every
 * process of the user whatever its environment, never in the user's home or a temp root, and
 * unreachable from inside any sandbox. Where `/dev/shm` is missing, or `openwork-<uid>` there is
 * not a private folder of ours (another user made it), `<openworkHome>/run/mount-points`.
 */
export function defaultRegistryDirectory(openworkHome: string): string {
  const uid = process.getuid?.() ?? 0;
  const base = `${sharedMemory}/openwork-${uid}`;
  const shared = fs.statSync(sharedMemory, { throwIfNoEntry: false });
  const existing = fs.lstatSync(base, { throwIfNoEntry: false });
  const usable = shared?.isDirectory() === true && (existing === undefined || (existing.isDirectory() && existing.uid === uid && (existing.mode & 0o077) === 0));
  return usable ? `${base}/mount-points` : `${openworkHome}/run/mount-points`;
}
