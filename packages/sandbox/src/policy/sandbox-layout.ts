import type { PathScope } from './sandbox-policy.js';

/** A canonical absolute path with how far it reaches. */
export interface ScopedPath {
  readonly path: string;
  readonly scope: PathScope;
}

/**
 * What a sandboxed process may do, derived from a `SandboxPolicy` by `deriveSandboxLayout`
 * (§3.4). The Seatbelt profile and the bubblewrap arguments render exactly this; `check(…,
 * 'process')` answers exactly this. Semantics, for a canonical path P:
 *
 * - read P  ⇔ P is not inside any `unreadable` entry.
 * - write P ⇔ P is inside some `writable` entry, and not inside any `readOnly` or `unreadable`
 *   entry (device files such as `/dev/null` stay writable for processes).
 *
 * "Inside" means equal to an `exact` entry, or equal to or below a `subtree` entry. Entries may
 * name paths that do not exist yet; enforcers must still protect them.
 */
export interface SandboxLayout {
  /** Writable roots of the mode plus write grants. `{path: '/', scope: 'subtree'}` in full-access. */
  readonly writable: readonly ScopedPath[];
  /** Paths that stay read-only inside the writable set: hard-protected, and sensitive without a grant. */
  readonly readOnly: readonly ScopedPath[];
  /** Neither readable nor writable: credential paths without a read grant. */
  readonly unreadable: readonly ScopedPath[];
}
