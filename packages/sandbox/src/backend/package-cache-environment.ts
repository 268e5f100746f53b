import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { privateTempCacheFolder } from './private-temp-cache-folder.js';

/** Options of `packageCacheEnvironment`; the defaults are this process's. */
export interface PackageCacheOptions {
  /** The user the cache must belong to. Default `process.getuid()`. */
  readonly uid?: number;
}

/**
 * The variables that point package managers at a writable cache (docs/decisions/0103): npm, pnpm
 * (store, cache and state — `pnpm_config_*`, which npm does not warn about as it does for unknown
 * `npm_config_*` names), yarn, pip, cargo and Go's module cache, each a folder below `cache`.
 */
export function packageCacheVariables(cache: string): Readonly<Record<string, string>> {
  return Object.freeze({
    npm_config_cache: `${cache}/npm`,
    pnpm_config_store_dir: `${cache}/pnpm-store`,
    pnpm_config_cache_dir: `${cache}/pnpm-cache`,
    pnpm_config_state_dir: `${cache}/pnpm-state`,
    YARN_CACHE_FOLDER: `${cache}/yarn`,
    PIP_CACHE_DIR: `${cache}/pip`,
    CARGO_HOME: `${cache}/cargo`,
    GOMODCACHE: `${cache}/go-mod`,
  });
}

/**
 * Package managers' caches for sandboxed commands (docs/decisions/0103). npm, pnpm, yarn, pip,
 * cargo and Go keep their caches under the home directory (`~/.npm`, `~/.cache/pip`, `~/.cargo`,
 * `~/go/pkg/mod` …), which `workspace-write` does not let a sandboxed process write, so `npm install`
 * failed with `ENOENT … mkdir '~/.npm/_cacache'`. This points them at
 * `<first temp root>/openwork-cache-<uid>/<tool>` instead, with the checks of `privateTempCacheFolder`;
 * otherwise nothing is added, and the tools fail as before — a denial the model is told about.
 * The cache is this user's, shared by their sessions (a second install is fast); writes there, as
 * anywhere below a temp root, are not recorded file changes.
 */
export function packageCacheEnvironment(policy: SandboxPolicy, options: PackageCacheOptions = {}): Readonly<Record<string, string>> {
  const cache = privateTempCacheFolder(policy, 'openwork-cache', options.uid ?? process.getuid?.());
  return cache === undefined ? {} : packageCacheVariables(cache);
}
