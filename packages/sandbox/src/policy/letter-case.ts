import { isInsideScopedPath } from './is-inside-scoped-path.js';
import type { ScopedPath } from './sandbox-layout.js';
import type { LetterCase } from './sandbox-policy.js';

/**
 * ASCII letters to lower case, nothing else: the folding that both the fence and a Seatbelt regex
 * class (`[gG][iI][tT]`) can express exactly. APFS also folds other scripts and Unicode
 * normalisation (README, known limits); the default protected names are all ASCII.
 */
export function foldLetterCase(path: string): string {
  return path.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * "Inside" for deny-side entries (protected, credential, folders holding them): with
 * `insensitive`, ASCII letter case is ignored, so `.GIT/config` is inside `.git/config` (issue 19).
 * Allow-side entries never use this: folding only ever denies more.
 */
export function isInsideAnyProtectedEntry(path: string, entries: readonly ScopedPath[], letterCase: LetterCase): boolean {
  if (letterCase === 'sensitive') {
    for (const entry of entries) if (isInsideScopedPath(path, entry)) return true;
    return false;
  }
  const folded = foldLetterCase(path);
  for (const entry of entries) {
    if (isInsideScopedPath(folded, { path: foldLetterCase(entry.path), scope: entry.scope })) return true;
  }
  return false;
}
