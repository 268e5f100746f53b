import type { FileChangeArtifact } from './file-change-artifact.js';
import type { FileChangeUnrecorded } from './file-change.js';

/** Which way the engine moves a batch of changes (§8.4). */
export type FileChangeOperation = 'undo' | 'reapply';

/** Every change of the batch was undone (or reapplied). */
export interface FileChangeSuccess {
  readonly ok: true;
  readonly operation: FileChangeOperation;
  /** The IDs acted on, in the order they were carried out (reverse for undo, forward for reapply). */
  readonly changeIds: readonly string[];
  /** The selected artifacts with `undone` rewritten, in the order given: what core stores back. */
  readonly artifacts: readonly FileChangeArtifact[];
}

/** Why one file of a batch does not hold what the change expects. */
export interface FileChangeMismatch {
  readonly changeId: string;
  readonly realPath: string;
  readonly displayPath: string;
  /** The content hash the step needs (`null`: no file may exist there). */
  readonly expectedHash: string | null;
  /** The hash of the regular file found; `null` when there is none (missing, a folder, a link, too large). */
  readonly actualHash: string | null;
  /** What was found, in words: `its content is different`, `it does not exist`, … */
  readonly reason: string;
}

/**
 * The request itself is wrong (unknown or repeated change ID, a change already in the wanted
 * state, an artifact that is not a valid file change). Nothing was touched.
 */
export interface FileChangeInvalidRequest {
  readonly ok: false;
  readonly code: 'invalid_request';
  readonly operation: FileChangeOperation;
  readonly message: string;
}

/** A change that undo and reapply cannot act on, and why (`FileChange.unrecorded`, in words). */
export interface UnrecordedChange {
  readonly changeId: string;
  readonly realPath: string;
  readonly displayPath: string;
  readonly unrecorded: FileChangeUnrecorded;
  readonly reason: string;
}

/**
 * Like a conflict, the batch is refused before anything is touched: some of its changes were
 * recorded without what undo (or reapply) would have to write — a binary or larger file, a link's
 * previous target, … — so they cannot be undone, and nothing is guessed. Select the other changes
 * by their own IDs to undo those.
 */
export interface FileChangeNotRecorded {
  readonly ok: false;
  readonly code: 'not_recorded';
  readonly operation: FileChangeOperation;
  readonly message: string;
  readonly changes: readonly UnrecordedChange[];
}

/** The fence refused a file (tier 1 is never writable, grant or not). Nothing was touched. */
export interface FileChangePermissionDenied {
  readonly ok: false;
  readonly code: 'permission_denied';
  readonly operation: FileChangeOperation;
  readonly message: string;
  readonly changeId: string;
  readonly realPath: string;
}

/**
 * §8.4 conflict: a file does not hold the content the change expects (undo: its `afterHash`;
 * reapply: its `beforeHash`), so nothing is overwritten. Found before writing, nothing was
 * touched; found in the middle (an outside writer raced), the completed steps were rolled back.
 */
export interface FileChangeConflict {
  readonly ok: false;
  readonly code: 'conflict';
  readonly operation: FileChangeOperation;
  readonly message: string;
  readonly conflicts: readonly FileChangeMismatch[];
}

/** A step failed for another reason (I/O error, disk full, …); the completed steps were rolled back. */
export interface FileChangeFailed {
  readonly ok: false;
  readonly code: 'failed';
  readonly operation: FileChangeOperation;
  readonly message: string;
  readonly cause: unknown;
}

/**
 * §8.4 `RollbackFailed`: a step failed, and putting back the steps already done failed too. The
 * files in `unrestored` are not as they were before the batch; nothing that an outside writer
 * changed meanwhile was overwritten by the rollback.
 */
export interface RollbackFailed {
  readonly ok: false;
  readonly code: 'rollback_failed';
  readonly operation: FileChangeOperation;
  readonly message: string;
  /** Why the batch stopped. */
  readonly cause: unknown;
  /** The completed steps that could not be put back, most recent first. */
  readonly unrestored: readonly UnrestoredFile[];
}

/** A file that a failed batch changed and its rollback could not put back. */
export interface UnrestoredFile {
  readonly changeId: string;
  readonly realPath: string;
  readonly displayPath: string;
  /** The hash the batch left there (`null`: the batch deleted the file). */
  readonly leftHash: string | null;
  /** The hash the rollback should have restored (`null`: the file should not exist). */
  readonly originalHash: string | null;
  /** Why putting it back failed. */
  readonly reason: string;
}

/** Why undo or reapply did nothing (or put everything back, or could not). */
export type FileChangeFailure =
  | FileChangeInvalidRequest
  | FileChangePermissionDenied
  | FileChangeConflict
  | FileChangeNotRecorded
  | FileChangeFailed
  | RollbackFailed;

/** What `undoFileChanges` and `reapplyFileChanges` return; they throw only for programmer errors. */
export type FileChangeOutcome = FileChangeSuccess | FileChangeFailure;
