import { lstat, readdirNames, unlink } from './byte-exact-fs.js';
import { join } from 'node:path';
import { matchAtomicTempFileName } from './atomic-temp-file-name.js';
import type { CheckedFolder } from './checked-folder.js';
import { inFlightTempFiles } from './in-flight-temp-files.js';

/** A temp file this old is a leftover even if its pid is alive again (pid reuse, another host on a shared disk). */
const abandonedAfterMs = 15 * 60 * 1000;

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * Deletes what crashed writers left next to `targetName`: only names of our temp pattern for that
 * target, only regular files last modified before this attempt started, and only when the writer
 * is gone (its pid no longer exists, or it is this process but not writing it now) or the file is
 * older than 15 minutes. Everything is named inside the held `folder`. Best effort: a failure here never fails the write.
 */
export async function removeLeftoverTempFiles(folder: CheckedFolder, targetName: string, attemptStartedMs: number): Promise<number> {
  let names: string[];
  try {
    names = await readdirNames(folder.ownPath);
  } catch {
    return 0;
  }
  const inFlight = inFlightTempFiles();
  let removed = 0;
  for (const name of names) {
    const pid = matchAtomicTempFileName(name, targetName);
    if (pid === undefined) continue;
    if (inFlight.has(join(folder.path, name))) continue;
    // Named through the held folder (architecture §3.7): never a file of a folder swapped in meanwhile.
    const path = folder.pathOf(name);
    try {
      const stats = await lstat(path);
      if (!stats.isFile() || stats.mtimeMs > attemptStartedMs) continue;
      const abandoned = attemptStartedMs - stats.mtimeMs > abandonedAfterMs;
      const writerGone = pid === process.pid || !isProcessAlive(pid);
      if (!abandoned && !writerGone) continue;
      await unlink(path);
      removed += 1;
    } catch {
      // Gone already, or not ours to remove: leave it.
    }
  }
  return removed;
}
