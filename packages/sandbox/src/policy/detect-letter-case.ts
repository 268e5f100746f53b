import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LetterCase } from './sandbox-policy.js';

/** How many directory entries to look at for one with letters before giving up on that directory. */
const entriesToTry = 64;

function swapLetterCase(name: string): string {
  return name.replace(/[A-Za-z]/g, (letter) => (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()));
}

/** Same node under both spellings: the directory that holds `name` folds letter case. */
function foldsCase(directory: string, name: string): boolean | undefined {
  const swapped = swapLetterCase(name);
  if (swapped === name) return undefined;
  try {
    const original = fs.lstatSync(path.join(directory, name), { bigint: true });
    const other = fs.lstatSync(path.join(directory, swapped), { bigint: true });
    return original.ino === other.ino && original.dev === other.dev;
  } catch {
    return false;
  }
}

/**
 * Whether `directory` looks names up without regard to letter case: an entry of it (else its own
 * name in its parent) is found under the opposite spelling as the same node. An entry is asked
 * first because a volume's mount point belongs to the parent's file system. Undecidable (missing,
 * unreadable, no letters anywhere) counts as case-sensitive.
 */
export function isCaseInsensitiveDirectory(directory: string): boolean {
  let handle: fs.Dir | undefined;
  try {
    handle = fs.opendirSync(directory);
    for (let index = 0; index < entriesToTry; index += 1) {
      const entry = handle.readSync();
      if (entry === null) break;
      const answer = foldsCase(directory, entry.name);
      if (answer !== undefined) return answer;
    }
  } catch {
    // fall back to the directory's own name
  } finally {
    handle?.closeSync();
  }
  return foldsCase(path.dirname(directory), path.basename(directory)) ?? false;
}

/**
 * The letter case a policy matches protected entries with (issue 19): `insensitive` on macOS and
 * Windows (case-insensitive by default; folding a case-sensitive volume only denies names nobody
 * uses), and wherever one of `directories` (the session's roots and home) is found to fold case —
 * a FAT/exFAT stick, an ext4 `casefold` folder. Otherwise `sensitive`.
 */
export function detectLetterCase(directories: readonly string[], platform: NodeJS.Platform = process.platform): LetterCase {
  if (platform === 'darwin' || platform === 'win32') return 'insensitive';
  return directories.some(isCaseInsensitiveDirectory) ? 'insensitive' : 'sensitive';
}
