import * as fs from 'node:fs';
import { checkAccess } from '../policy/check-access.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';

/** Options of `goBuildCacheEnvironment`; the defaults are this process's. */
export interface GoBuildCacheOptions {
  /** The user the cache must belong to. Default `process.getuid()`. */
  readonly uid?: number;
}

/**
 * Spec §7.9: `GOCACHE` for sandboxed commands. Go keeps its build cache under the home directory
 * (`~/.cache/go-build`, `~/Library/Caches/go-build`), which `workspace-write` does not let a
 * sandboxed process write, so every `go build` / `go test` would fail there. This points it at
 * `<first temp root>/openwork-go-build-<uid>` instead, in three steps:
 *
 * 1. Only in `workspace-write` (full-access can write the default cache; read-only nothing at all)
 *    and only where the policy lets a sandboxed process write.
 * 2. Create the folder, mode 0700.
 * 3. Use it only if it is a real folder (not a link), owned by this user and closed to others: in a
 *    shared `/tmp` another user could have made it first and filled it with poisoned build
 *    results. Otherwise add nothing (go then fails like without this, which is safe).
 */
export function goBuildCacheEnvironment(policy: SandboxPolicy, options: GoBuildCacheOptions = {}): Readonly<Record<string, string>> {
  const tempRoot = policy.tempRoots[0];
  const uid = options.uid ?? process.getuid?.();
  if (policy.mode !== 'workspace-write' || tempRoot === undefined || uid === undefined) return {};
  const cache = `${tempRoot === '/' ? '' : tempRoot}/openwork-go-build-${uid}`;
  if (!checkAccess(policy, cache, 'write', 'process').allowed) return {};
  try {
    fs.mkdirSync(cache, { mode: 0o700 });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') return {};
  }
  const stats = fs.lstatSync(cache, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isDirectory() || stats.uid !== uid || (stats.mode & 0o077) !== 0) return {};
  return { GOCACHE: cache };
}
