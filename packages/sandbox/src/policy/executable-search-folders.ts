import * as path from 'node:path';

function isAtOrBelow(candidate: string, base: string): boolean {
  return base === '/' || candidate === base || candidate.startsWith(`${base}/`);
}

/**
 * Architecture §3.7 "planted code": the folders of the user's `PATH` where a sandboxed command
 * could plant a program that the user's shell runs later instead of the real one — absolute
 * entries strictly inside one of `bases` (HOME and the session's roots). Relative entries (`.`,
 * `node_modules/.bin`) are left out: they name a different folder in every directory. An entry that
 * is a base itself or holds one (`PATH=$HOME:…`) is left out too: protecting it would make the
 * whole workspace or HOME read-only (README, known limits).
 */
export function executableSearchFolders(searchPath: string, bases: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const entry of searchPath.split(':')) {
    if (!entry.startsWith('/') || entry.includes('\0')) continue;
    const folder = path.posix.normalize(entry).replace(/(.)\/+$/, '$1');
    if (bases.some((base) => isAtOrBelow(base, folder))) continue;
    if (bases.some((base) => isAtOrBelow(folder, base))) folders.add(folder);
  }
  return [...folders];
}
