import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SPILL_RETENTION_MS } from './spill-retention.js';

/** How `removeStaleSpillDirectories` decides. */
export interface SpillRetentionOptions {
  /** Default `SPILL_RETENTION_MS` (7 days). */
  readonly retentionMs?: number;
  /** Epoch milliseconds to measure age from; default `Date.now()`. */
  readonly now?: number;
}

/**
 * §8.2 retention: deletes every session folder in `spillRoot` (`<openwork home>/spill`) that was
 * last touched more than `retentionMs` ago. "Touched" is the newest modification time of the
 * folder itself and of the entries directly in it (spill files are written once, in the folder),
 * so a folder that got a new file yesterday stays. Only real folders are considered: a symbolic
 * link or a file in `spillRoot` is left alone, and `rm` never follows links inside a folder.
 * A missing `spillRoot` is nothing to do. Returns the folders removed; a folder that cannot be
 * read or removed is skipped (it is tried again at the next start).
 */
export async function removeStaleSpillDirectories(spillRoot: string, options: SpillRetentionOptions = {}): Promise<string[]> {
  const cutoff = (options.now ?? Date.now()) - (options.retentionMs ?? SPILL_RETENTION_MS);
  let names: string[];
  try {
    names = await readdir(spillRoot);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names.sort()) {
    const directory = join(spillRoot, name);
    const touched = await lastTouched(directory);
    if (touched === undefined || touched > cutoff) continue;
    try {
      await rm(directory, { recursive: true, force: true });
      removed.push(directory);
    } catch {
      // Left for the next start: retention must never keep a runtime from starting.
    }
  }
  return removed;
}

/** Newest mtime of a real folder and its direct entries; `undefined` for anything else. */
async function lastTouched(directory: string): Promise<number | undefined> {
  try {
    const folder = await lstat(directory);
    if (!folder.isDirectory()) return undefined;
    let newest = folder.mtimeMs;
    for (const name of await readdir(directory)) {
      const entry = await lstat(join(directory, name)).catch(() => undefined);
      if (entry !== undefined && entry.mtimeMs > newest) newest = entry.mtimeMs;
    }
    return newest;
  } catch {
    return undefined;
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}
