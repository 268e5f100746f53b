import type { ScopedPath } from './sandbox-layout.js';

/**
 * "Inside" of `SandboxLayout`: equal to an `exact` entry, or equal to or below a `subtree` entry.
 * Pure string comparison over canonical paths, case-sensitive (peers.md: never lowercase), with a
 * separator check so that `/ws2` is not inside `/ws`.
 */
export function isInsideScopedPath(path: string, entry: ScopedPath): boolean {
  if (path === entry.path) return true;
  if (entry.scope === 'exact') return false;
  if (entry.path === '/') return path.startsWith('/');
  return path.startsWith(entry.path) && path.charCodeAt(entry.path.length) === 47; // '/'
}

/**
 * The same question over a long frozen list, answered by set lookups of `path` and of each prefix
 * that ends before a `/` (a subtree entry `P` contains `path` exactly when `path` is `P` or starts
 * with `P/`): the number of ancestors instead of the number of entries. A layout holds about 200
 * entries and `wrap` asks about every one of them against the others (the mount plan's
 * quadratic checks were 1.5 ms of each bash call).
 */
class ScopedPathIndex {
  readonly #paths = new Set<string>();
  readonly #subtrees = new Set<string>();
  readonly #root: boolean;

  constructor(entries: readonly ScopedPath[]) {
    let root = false;
    for (const entry of entries) {
      this.#paths.add(entry.path);
      if (entry.scope !== 'subtree') continue;
      if (entry.path === '/') root = true;
      else this.#subtrees.add(entry.path);
    }
    this.#root = root;
  }

  contains(path: string): boolean {
    if (this.#paths.has(path)) return true;
    if (this.#root && path.startsWith('/')) return true;
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      if (this.#subtrees.has(path.slice(0, slash))) return true;
    }
    return false;
  }
}

/** Below this many entries a loop is as fast as building an index. */
const indexedFrom = 16;
const indexes = new WeakMap<readonly ScopedPath[], ScopedPathIndex>();

/**
 * Only a list that can never change is indexed (a frozen array of frozen entries, as
 * `deriveSandboxLayout` returns): a cached answer for a list that was pushed to since would be wrong.
 */
function indexOf(entries: readonly ScopedPath[]): ScopedPathIndex | undefined {
  if (entries.length < indexedFrom || !Object.isFrozen(entries)) return undefined;
  let index = indexes.get(entries);
  if (index === undefined) {
    if (!entries.every((entry) => Object.isFrozen(entry))) return undefined;
    index = new ScopedPathIndex(entries);
    indexes.set(entries, index);
  }
  return index;
}

/** True when `path` is inside at least one of `entries`. */
export function isInsideAnyScopedPath(path: string, entries: readonly ScopedPath[]): boolean {
  const index = indexOf(entries);
  if (index !== undefined) return index.contains(path);
  for (const entry of entries) {
    if (isInsideScopedPath(path, entry)) return true;
  }
  return false;
}
