import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LetterCase } from './sandbox-policy.js';

/** Directories with more entries than this are judged by their own name only (no full listing). */
const entriesToList = 4096;

function swapLetterCase(name: string): string {
  return name.replace(/[A-Za-z]/g, (letter) => (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()));
}

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `directory` looks names up without regard to letter case: one of its entries is found
 * under the opposite spelling although no entry is spelled so. (Comparing inode numbers is not
 * enough: FUSE file systems such as exFAT give each spelling its own node.) An entry is asked
 * first because a volume's mount point belongs to the parent's file system; a directory with no
 * usable entry is judged by its own name in its parent. Undecidable counts as case-sensitive.
 */
export function isCaseInsensitiveDirectory(directory: string): boolean {
  let names: string[] = [];
  try {
    const listing = fs.readdirSync(directory);
    if (listing.length <= entriesToList) names = listing;
  } catch {
    names = [];
  }
  const present = new Set(names);
  for (const name of names) {
    const swapped = swapLetterCase(name);
    if (swapped === name || present.has(swapped)) continue;
    return exists(path.join(directory, swapped));
  }
  const parent = path.dirname(directory);
  const own = path.basename(directory);
  const swapped = swapLetterCase(own);
  if (swapped === own || parent === directory) return false;
  let siblings: string[];
  try {
    siblings = fs.readdirSync(parent);
  } catch {
    return false;
  }
  return !siblings.includes(swapped) && exists(path.join(parent, swapped));
}

/**
 * The letter case a policy matches protected entries with (docs/decisions/0044-sandbox-letter-case.md): `insensitive` on macOS and
 * Windows (case-insensitive by default; folding a case-sensitive volume only denies names nobody
 * uses), and wherever one of `directories` (the session's roots and home) is found to fold case —
 * a FAT/exFAT stick, an ext4 `casefold` folder. Otherwise `sensitive`.
 */
export function detectLetterCase(directories: readonly string[], platform: NodeJS.Platform = process.platform): LetterCase {
  if (platform === 'darwin' || platform === 'win32') return 'insensitive';
  return directories.some(isCaseInsensitiveDirectory) ? 'insensitive' : 'sensitive';
}
