import type { SuggestedGrant } from '../policy/access-decision.js';

/** One writable root of a call as an overlay: the host folder and the upper layer its writes went to. */
export interface StagedRoot {
  /** The host folder the overlay covered (canonical). */
  readonly target: string;
  /** The overlay's upper layer: exactly what the command changed below `target`. */
  readonly upper: string;
}

export type StagedEntryType = 'file' | 'directory' | 'symlink';

/** One change applied to the host (architecture §3.10: bash's changes are file changes). */
export interface StagedChange {
  /** The host path (canonical). */
  readonly path: string;
  readonly kind: 'created' | 'modified' | 'deleted';
  readonly type: StagedEntryType;
  /** Permission bits after the change (before it, for a deletion). */
  readonly mode?: number;
  /** Size in bytes after the change (before it, for a deletion): files only. */
  readonly size?: number;
  /** Where a symbolic link points (after the change; before it, for a deletion). */
  readonly linkTarget?: string;
  /** For a modification: what the entry was before (its type, permission bits, a link's target). */
  readonly beforeType?: StagedEntryType;
  readonly beforeMode?: number;
  readonly beforeLinkTarget?: string;
  /**
   * The file's bytes before and after (`null`: it did not exist), recorded for undo while the
   * call's recording budget lasts (`ApplyStagedWritesOptions`): absent when not recorded.
   */
  readonly before?: Buffer | null;
  readonly after?: Buffer | null;
}

/** A change the rules refused: it was not applied, the host keeps what it had. */
export interface StagedRefusal {
  readonly path: string;
  readonly operation: 'create' | 'modify' | 'delete';
  /** The judge's text (architecture §3.5), with the escalation hint where one applies. */
  readonly message: string;
  /** The grant that would allow it (absent for tier 1: nothing can). */
  readonly suggestedGrant?: SuggestedGrant;
  /** How many entries below a refused new folder were not applied with it. */
  readonly entriesBelow?: number;
}

/** Something the command made that has no place on the host (a FIFO, a socket, a device). */
export interface StagedSkip {
  readonly path: string;
  readonly reason: string;
}

/**
 * An entry the host changed while the command ran (architecture §3.11): the host keeps its
 * version; the command's, where it had one, is kept aside at `keptAt`.
 */
export interface StagedConflict {
  /** The host path (canonical). */
  readonly path: string;
  /** What the command did to it. */
  readonly operation: 'create' | 'modify' | 'delete';
  /** Why it was not applied, in a sentence. */
  readonly reason: string;
  /** Where the command's version is kept (absent for a deletion: there is nothing to keep). */
  readonly keptAt?: string;
}

/**
 * What the apply compares the host with (architecture §3.11): an entry is the one the command saw
 * when its change time is at most `stampNs` (taken just before the command started; the command
 * starts once the file systems' clock has passed it), or when it is exactly the one recorded in
 * `seen` (what an earlier pass of the same call applied, or a file tool's write shown to the
 * command). Passes of one running command share it; each pass adds what it applied.
 */
export interface StagedBase {
  readonly stampNs: bigint;
  /** Host path → `<inode>:<change time in ns>` of an entry the command's view holds as it is now. */
  readonly seen: Map<string, string>;
}

export interface StagedApplyReport {
  /** Changes applied, in the order they were applied; only the first `maxRecordedChanges` are listed. */
  readonly changes: readonly StagedChange[];
  readonly refused: readonly StagedRefusal[];
  readonly skipped: readonly StagedSkip[];
  /** Every applied change, listed or not. */
  readonly counts: { readonly created: number; readonly modified: number; readonly deleted: number };
  /** False when more changes were applied than listed (`changes` is then the first ones). */
  readonly complete: boolean;
  /**
   * Changes applied below a temp root (and not below a more specific workspace or writable root):
   * judged and applied like the rest, but neither listed nor in `counts` — scratch, not file
   * changes (docs/decisions/0103).
   */
  readonly scratchChanges?: number;
  /** Entries the host changed meanwhile: not applied, the host keeps its version (absent: none). */
  readonly conflicts?: readonly StagedConflict[];
  /**
   * Set when the apply failed before anything was put in place (a full disk while new contents
   * were staged, a folder that could not be made): nothing of this pass reached the host.
   */
  readonly failed?: string;
}
