import * as fs from 'node:fs';
import { checkAccess } from '../policy/check-access.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';

/**
 * A cache folder of this user for sandboxed commands, `<first temp root>/<name>-<uid>` (spec §7.9,
 * docs/decisions/0103), in three steps, or undefined when there is none to give:
 *
 * 1. Only in `workspace-write` (full-access can write the tools' default caches; read-only nothing)
 *    and only where the policy lets a sandboxed process write.
 * 2. Create the folder, mode 0700.
 * 3. Use it only if it is a real folder (not a link), owned by this user and closed to others: in a
 *    shared `/tmp` another user could have made it first and filled it with poisoned build results
 *    or packages. Otherwise nothing is given (the tool then fails as without it, which is safe).
 */
export function privateTempCacheFolder(policy: SandboxPolicy, name: string, uid: number | undefined): string | undefined {
  const tempRoot = policy.tempRoots[0];
  if (policy.mode !== 'workspace-write' || tempRoot === undefined || uid === undefined) return undefined;
  const cache = `${tempRoot === '/' ? '' : tempRoot}/${name}-${uid}`;
  if (!checkAccess(policy, cache, 'write', 'process').allowed) return undefined;
  try {
    fs.mkdirSync(cache, { mode: 0o700 });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') return undefined;
  }
  const stats = fs.lstatSync(cache, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isDirectory() || stats.uid !== uid || (stats.mode & 0o077) !== 0) return undefined;
  return cache;
}
