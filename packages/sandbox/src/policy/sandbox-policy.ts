/**
 * The sandbox policy (architecture.md §3). One value of this type is stamped by core for every
 * tool call (spec §5); the file-tool fence (`check`), the Seatbelt profile and the bubblewrap
 * arguments are all derived from it by the same functions (§3.4), so they cannot disagree.
 *
 * CONTRACT NOTE (shared by the policy, Seatbelt and bubblewrap code): the shapes in this file and
 * in `sandbox-layout.ts` are the interface between them. Change them only together.
 */

import type { ScopedPath } from './sandbox-layout.js';

/** §3.1. `workspace-write` is the default. */
export type SandboxMode = 'read-only' | 'workspace-write' | 'full-access';

export type PathAccess = 'read' | 'write';

/** Who asks: a built-in file tool (in-process fence) or a sandboxed process (kernel). */
export type SandboxActor = 'file-tool' | 'process';

/** §3.2, in precedence order. */
export type PathTier = 'hard-protected' | 'credential' | 'sensitive' | 'writable-root' | 'outside';

/** `exact` names one path; `subtree` the path and everything below it. */
export type PathScope = 'exact' | 'subtree';

/**
 * Network of a sandboxed process (spec §7.9, docs/decisions/0046-sandbox-network-allowed-by-default.md). `allow` (default): as unsandboxed, and no
 * text claims any network restriction. `none`: no network at all — bubblewrap `--unshare-net`
 * (a namespace with only its own loopback), Seatbelt without any network rule under
 * `(deny default)`. Both backends render it; the file-tool fence has nothing to say about it.
 */
export type NetworkAccess = 'allow' | 'none';

/**
 * How protected entries (tiers 1–3 and the folders above them) are matched. `insensitive` folds
 * ASCII letter case, so that on a case-insensitive volume (the macOS default) `.GIT/config` is
 * `.git/config` for the fence and for Seatbelt. Only the deny side folds: writable roots and grants
 * keep matching exactly, so folding can only ever deny more, never allow more.
 */
export type LetterCase = 'sensitive' | 'insensitive';

/** One path of a grant (§3.3, spec §7.5 `sandboxPermissions.paths[]`). Canonical once in a policy. */
export interface PathGrant {
  readonly path: string;
  readonly access: PathAccess;
  readonly scope: PathScope;
}

/**
 * A fully resolved policy: every path absolute and canonical (realpath of the deepest existing
 * ancestor + the rest), so enforcers never touch the file system to interpret it.
 * Build it with `createSandboxPolicy` (policy module); do not assemble it by hand.
 */
export interface SandboxPolicy {
  readonly mode: SandboxMode;
  /** Workspace roots. An empty list makes nothing writable (peers.md). */
  readonly workspaceRoots: readonly string[];
  /** Extra writable roots given to the session. */
  readonly extraWritableRoots: readonly string[];
  /** Temp roots (`os.tmpdir()`, `/tmp`, canonicalised), writable in `workspace-write`. */
  readonly tempRoots: readonly string[];
  /** The user's home directory, against which the home-relative defaults were resolved. */
  readonly homeDirectory: string;
  /** The OpenWork home (`~/.openwork` by default): hard-protected. */
  readonly openworkHome: string;
  /** Agent skill roots: hard-protected. */
  readonly skillRoots: readonly string[];
  /**
   * Other locations of the tier 1 entries, resolved when the policy was built: where a symbolic
   * link that names one sits (`~/.openwork` → `/data/ow`: the link itself, so it cannot be replaced)
   * and what a linked `<root>/.openwork` points to. Hard-protected like the entries themselves.
   */
  readonly hardProtectedAliases: readonly string[];
  /**
   * Credential paths (tier 2), absolute, with every other mount path of each (architecture §3.8:
   * masks follow the file, `mountAliases`).
   */
  readonly credentialPaths: readonly string[];
  /**
   * The credential paths (a subset) that a kernel renderer need not mask while they do not exist:
   * a missing one holds no secret and creating it runs nothing later, so no host mount point is
   * made for it. The fence and Seatbelt deny them whether they exist or not.
   */
  readonly credentialPathsUnguardedWhenMissing: readonly string[];
  /**
   * What openwork stored (architecture §3.8 "secrets at rest"): the session database files and the
   * spill folder of the OpenWork home. Unreadable like credentials, and no grant reopens them.
   */
  readonly storedSecretPaths: readonly string[];
  /** This session's own spill folder (below `storedSecretPaths`): readable again for this session only. */
  readonly sessionSpillDirectory: string | undefined;
  /**
   * UNIX sockets of host daemons a sandboxed command may connect to (architecture §3.7): every
   * other socket a host process listens on is unreachable. Canonical; empty by default.
   */
  readonly allowedSockets: readonly string[];
  /** Sensitive paths in home (tier 3), absolute. */
  readonly sensitiveHomePaths: readonly string[];
  /** Sensitive names relative to every writable root (tier 3): `.git/hooks`, `.git/config`, … */
  readonly sensitiveRootEntries: readonly string[];
  /**
   * Where root entries that are symbolic links point (e.g. `<ws>/.git/hooks` → `<ws>/githooks`),
   * resolved when the policy was built: tier 3 like the entries themselves.
   */
  readonly sensitiveRootAliases: readonly string[];
  /**
   * Tier 3 entries through which git could be redirected to other configuration or hooks, read
   * from the host when the policy was built (`findGitRedirections`): a `.git` that is a file or a
   * link (`exact`: only the entry) and the git directories it names, their `commondir`,
   * `config.worktree`, `worktrees/`, submodule and linked-worktree `.git` files, the
   * `core.hooksPath` folder and included configuration files. Canonical, like every path here.
   */
  readonly gitRedirections: readonly ScopedPath[];
  /** Grants approved for this one call (§3.3). Never unlock tier 1. */
  readonly grants: readonly PathGrant[];
  /** Network of sandboxed processes; `allow` unless the session says `none`. */
  readonly network: NetworkAccess;
  /** How protected entries are matched (see `LetterCase`). */
  readonly letterCase: LetterCase;
  /**
   * Where procfs is mounted (`/proc`, and e.g. a container's `/host/proc`), read when the policy
   * was built: below each, the entries that expose a process's secrets (`environ`, `cmdline`,
   * `mem` …) are credentials for the file tools (`processSecretEntries`). Absent: `/proc` on Linux.
   */
  readonly procfsMounts?: readonly string[];
}
