import type { FileChange } from './file-change.js';

/**
 * What is at a path on one side of a change: nothing, a text file with this content, a link to
 * this target, or a folder. Undo and reapply move an entry from one side to the other.
 */
export type EntryState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly hash: string; readonly content: string }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'directory' };

/**
 * One operation of a batch: make the entry at `change.realPath` go from `from` to `to`. Undo goes
 * from the change's after side to its before side, reapply the other way; `absent` means "no
 * entry" (undoing a `created` change deletes the file).
 */
export interface FileChangeStep {
  readonly change: FileChange;
  readonly from: EntryState;
  readonly to: EntryState;
  /** Permission bits for an entry the step creates (`to` is not absent and `from` is), when recorded. */
  readonly createMode: number | undefined;
}

/** The content hash a side names: the file's, else `null` (nothing, a link, a folder). */
export function hashOf(state: EntryState): string | null {
  return state.kind === 'file' ? state.hash : null;
}
