import type { LetterCase, NetworkAccess, PathScope } from './sandbox-policy.js';
import type { SensitiveKindRules } from './sensitive-kinds.js';

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
 * - read P  ⇔ P is not inside any `unreadable` entry, OR P is inside some `readableGrants` entry.
 * - write P ⇔ P is inside some `writable` entry, and not inside any `readOnly` or `unreadable`
 *   entry; OR P is inside some `writableGrants` entry and not inside any `hardProtected` entry;
 *   OR (processes only) P is one of `deviceFiles` (`/dev/null`, `/dev/zero`, `/dev/tty`, …).
 *
 * The `*Grants` lists are the grants of this call that name a path at or below a credential or
 * sensitive entry (§3.3 "most specific rule wins"): they reopen exactly what they name. A grant
 * on an ancestor of such an entry is an ordinary `writable` entry and does not unlock it.
 * Renderers: render `readableGrants`/`writableGrants` after the masks/read-only binds, then
 * re-protect `hardProtected` entries inside them. Without grants both lists are empty.
 *
 * "Inside" means equal to an `exact` entry, or equal to or below a `subtree` entry. Entries may
 * name paths that do not exist yet; enforcers must still protect them. With `letterCase:
 * 'insensitive'`, "inside" a deny-side entry (`readOnly`, `unreadable`, `hardProtected`) ignores
 * ASCII letter case; allow-side entries always match exactly.
 *
 * Tier 3 by kind (`sensitiveKinds`, architecture §3.10): additionally, a write of P through a
 * `writable` or `writableGrants` entry W (the deepest one holding P) is refused when P is at or
 * below a kind entry K (a `.git/hooks`, `.git/config`, `.envrc`, `.vscode` … at any depth, a `.git`
 * entry itself, or a repository's `core.hooksPath` folder) that lies strictly below W. A W at or
 * below K (a grant naming `.git/hooks/pre-commit` or `.vscode`) reopens K: most specific rule wins.
 *
 * Folders that hold protected entries (`protectedParents(layout)`): every folder from a writable
 * entry down to the parent of a `readOnly`/`unreadable` entry inside it is not writable itself —
 * it cannot be created, renamed, moved onto or removed — so that `mv .git .g; edit .g/hooks; mv .g
 * .git` and `mv ~/.config ~/.cfg` cannot carry a protected entry out from under its name. Files
 * inside such folders stay writable as before.
 */
export interface SandboxLayout {
  /** Writable roots of the mode plus write grants. `{path: '/', scope: 'subtree'}` in full-access. */
  readonly writable: readonly ScopedPath[];
  /** Paths that stay read-only inside the writable set: hard-protected, and sensitive without a grant. */
  readonly readOnly: readonly ScopedPath[];
  /** Neither readable nor writable: credential paths (tier 2). Grants reopen parts via `readableGrants`. */
  readonly unreadable: readonly ScopedPath[];
  /** Tier 1 entries (a subset of `readOnly`): never writable, whatever the grant. */
  readonly hardProtected: readonly ScopedPath[];
  /** Grants (read or write) at or below an `unreadable` entry: readable again for this call. */
  readonly readableGrants: readonly ScopedPath[];
  /** Write grants at or below a `readOnly`/`unreadable` entry (never tier 1): writable for this call. */
  readonly writableGrants: readonly ScopedPath[];
  /** Device files a process may always write (`/dev/null` …); never writable for file tools. Exact paths. */
  readonly deviceFiles: readonly ScopedPath[];
  /**
   * Tier 3 by kind, at any depth inside every writable entry (see above). Optional so that
   * hand-built layouts stay valid (absent: no kind rules); `deriveSandboxLayout` always sets it.
   * Name rules are pure pattern matches; `repositoryHooksFolders` is judged from the host per call.
   */
  readonly sensitiveKinds?: SensitiveKindRules;
  /** Whether sandboxed processes reach the network (rendered by both backends). */
  readonly network: NetworkAccess;
  /** How deny-side entries match (see above). */
  readonly letterCase: LetterCase;
  /**
   * The session's workspace, extra and temp roots, in every mode (in full-access `writable` is just
   * `/`). Not an access rule: kernel renderers that cannot protect an entry by its path use it to
   * pick how (bubblewrap: a symbolic link at a protected name, see its README). Optional so that
   * hand-built layouts stay valid; `deriveSandboxLayout` always sets it.
   */
  readonly sessionRoots?: readonly string[];
  /** The home directory the policy was built with; the same kind of hint as `sessionRoots`. */
  readonly homeDirectory?: string;
  /**
   * `unreadable` entries a kernel renderer may leave unmasked while they do not exist (no host
   * mount point for a missing credential whose creation runs nothing later). Optional, like the hints above.
   */
  readonly unreadableWhenPresent?: readonly string[];
  /**
   * UNIX sockets a sandboxed process may connect to although a host process listens on them
   * (architecture §3.7). Every other host socket is unreachable. Optional: absent means none.
   */
  readonly allowedSockets?: readonly string[];
}
