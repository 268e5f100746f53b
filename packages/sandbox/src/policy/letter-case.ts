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
 * `insensitive`, ASCII letter case is ignored, so `.GIT/config` is inside `.git/config` (docs/decisions/0044-sandbox-letter-case.md).
 * Allow-side entries never use this: folding only ever denies more.
 */
export function isInsideAnyProtectedEntry(path: string, entries: readonly ScopedPath[], letterCase: LetterCase): boolean {
  if (entries.length >= indexedFrom && Object.isFrozen(entries)) return isInsideIndexed(path, indexOf(entries, letterCase), letterCase);
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

/**
 * The default lists hold some 150 credential and start-up entries (architecture §3.8), and grep
 * asks about every file it visits: a frozen list that long is looked up by its ancestors in a set
 * (one lookup per path component) instead of compared entry by entry.
 */
const indexedFrom = 24;

interface EntryIndex {
  readonly exact: ReadonlySet<string>;
  readonly subtree: ReadonlySet<string>;
}

const indexes = new WeakMap<readonly ScopedPath[], Map<LetterCase, EntryIndex>>();

function indexOf(entries: readonly ScopedPath[], letterCase: LetterCase): EntryIndex {
  let byCase = indexes.get(entries);
  if (byCase === undefined) {
    byCase = new Map();
    indexes.set(entries, byCase);
  }
  let index = byCase.get(letterCase);
  if (index === undefined) {
    const key = (value: string): string => (letterCase === 'insensitive' ? foldLetterCase(value) : value);
    index = {
      exact: new Set(entries.filter((entry) => entry.scope === 'exact').map((entry) => key(entry.path))),
      subtree: new Set(entries.filter((entry) => entry.scope === 'subtree').map((entry) => key(entry.path))),
    };
    byCase.set(letterCase, index);
  }
  return index;
}

function isInsideIndexed(path: string, index: EntryIndex, letterCase: LetterCase): boolean {
  const subject = letterCase === 'insensitive' ? foldLetterCase(path) : path;
  if (index.exact.has(subject)) return true;
  if (index.subtree.has('/') && subject.startsWith('/')) return true;
  let ancestor = subject;
  while (ancestor.length > 1) {
    if (index.subtree.has(ancestor)) return true;
    const slash = ancestor.lastIndexOf('/');
    if (slash <= 0) break;
    ancestor = ancestor.slice(0, slash);
  }
  return false;
}
