import type { FileChangeOperation, FileChangeOutcome } from '@openwork/builtins';

/** §8.4 `SessionActive`: a turn, a call or another undo is running; nothing was touched. */
export interface FileChangesSessionActive {
  readonly ok: false;
  readonly code: 'session_active';
  readonly operation: FileChangeOperation;
  readonly message: string;
}

/**
 * The files were changed, but writing `undone` back to the store failed (§8.4 names this gap:
 * the chain is not one transaction across database and file system). The files are in the new
 * state; the stored artifacts still say the old one.
 */
export interface FileChangesRecordFailed {
  readonly ok: false;
  readonly code: 'record_failed';
  readonly operation: FileChangeOperation;
  readonly message: string;
  readonly changeIds: readonly string[];
  readonly cause: unknown;
}

/**
 * What `Session.undo` and `Session.reapply` return: builtins' engine outcome (success, or
 * `invalid_request`, `permission_denied`, `conflict`, `not_recorded`, `failed`, `rollback_failed` with nothing
 * overwritten), or one of core's two.
 */
export type FileChangesOutcome = FileChangeOutcome | FileChangesSessionActive | FileChangesRecordFailed;
