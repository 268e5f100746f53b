import type { FileChangeArtifact } from './file-change-artifact.js';

/** A file change of a session (§8.4), located in the message that holds its artifact. */
export interface FileChangeRecord {
  readonly sessionId: string;
  readonly changeId: string;
  readonly path: string;
  readonly undone: boolean;
  /** The tool call that made the change, answered by the tool message below. */
  readonly toolCallId: string;
  readonly messageId: string;
  readonly messageSequence: number;
  /** Index of the artifact in the tool result's `artifacts`. */
  readonly artifactIndex: number;
  /** The whole artifact as stored, `undone` included (the current state). */
  readonly artifact: FileChangeArtifact;
}

/** Input of `setUndone`. */
export interface UndoneUpdate {
  /**
   * The changes to update, all or none (one undo or reapply batch). Every change must currently
   * be in the opposite state, or nothing is changed and an `UndoneConflictError` names the first
   * that is not.
   */
  readonly changeIds: readonly string[];
  /** `true` after an undo, `false` after a reapply. */
  readonly undone: boolean;
}
