import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { privateTempCacheFolder } from './private-temp-cache-folder.js';

/** Options of `goBuildCacheEnvironment`; the defaults are this process's. */
export interface GoBuildCacheOptions {
  /** The user the cache must belong to. Default `process.getuid()`. */
  readonly uid?: number;
}

/**
 * Spec §7.9: `GOCACHE` for sandboxed commands. Go keeps its build cache under the home directory
 * (`~/.cache/go-build`, `~/Library/Caches/go-build`), which `workspace-write` does not let a
 * sandboxed process write, so every `go build` / `go test` would fail there. This points it at
 * `<first temp root>/openwork-go-build-<uid>` instead, with the checks of `privateTempCacheFolder`
 * (only in `workspace-write` where a sandboxed process may write; a private folder of this user).
 */
export function goBuildCacheEnvironment(policy: SandboxPolicy, options: GoBuildCacheOptions = {}): Readonly<Record<string, string>> {
  const cache = privateTempCacheFolder(policy, 'openwork-go-build', options.uid ?? process.getuid?.());
  return cache === undefined ? {} : { GOCACHE: cache };
}
