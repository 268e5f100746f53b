import { lstatSync } from 'node:fs';
import { toNodePath } from '@openwork/fs-backend';

/**
 * glob's time of a match (§7.7): the `mtimeMs` of `path` itself (a link is not followed), or
 * `undefined` when it cannot be read (the file then ranks last). Used by the search workers and,
 * when they are gone, by the calling thread.
 */
export function fileMtime(path: string): number | undefined {
  try {
    const mtimeMs = lstatSync(toNodePath(path), { throwIfNoEntry: false })?.mtimeMs;
    return mtimeMs !== undefined && Number.isFinite(mtimeMs) ? mtimeMs : undefined;
  } catch {
    return undefined;
  }
}
