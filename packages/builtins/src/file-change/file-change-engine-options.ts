import type { AsyncFileSystem, WriteLocks } from '@openwork/fs-backend';
import type { SandboxPolicy } from '@openwork/sandbox';

/**
 * What undo and reapply need besides the artifacts (§8.4). A `ToolSessionContext` has the first
 * two under these names; the policy is the session's (its mode and roots, no call's grants).
 */
export interface FileChangeEngineOptions {
  /** The session's file-system backend: every read, write and delete goes through it. */
  readonly filesystem: AsyncFileSystem;
  /** The session's write locks, shared with `write` and `edit`, so an undo never interleaves with them. */
  readonly writeLocks: WriteLocks;
  /**
   * The session's sandbox policy. Each file involved gets an exact write grant on top of it
   * (§8.4, "撤销授权"): a change the user approved can be undone, but hard-protected paths
   * (tier 1) stay closed whatever the grant.
   */
  readonly policy: SandboxPolicy;
}
