import type { FileChange } from './file-change.js';

/**
 * One file operation of a batch: make the file at `change.realPath` go from `from` to `to`.
 * Undo goes from the change's after side to its before side, reapply the other way; a `null`
 * content means "no file" (undoing a `created` change deletes the file).
 */
export interface FileChangeStep {
  readonly change: FileChange;
  readonly fromHash: string | null;
  readonly fromContent: string | null;
  readonly toHash: string | null;
  readonly toContent: string | null;
}
