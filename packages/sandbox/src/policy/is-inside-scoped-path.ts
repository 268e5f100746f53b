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

/** True when `path` is inside at least one of `entries`. */
export function isInsideAnyScopedPath(path: string, entries: readonly ScopedPath[]): boolean {
  for (const entry of entries) {
    if (isInsideScopedPath(path, entry)) return true;
  }
  return false;
}
