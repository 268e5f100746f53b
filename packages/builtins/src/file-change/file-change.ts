import type { FileChangeHunk } from './file-change-hunk.js';

/**
 * `created`: nothing existed at the path before; `modified`: what was there was replaced (§8.4);
 * `deleted`: it was removed (a sandboxed command's change, architecture §3.10).
 */
export type FileChangeKind = 'created' | 'modified' | 'deleted';

/** What the changed entry is. Absent on a change: `file` (every change of `write` and `edit`). */
export type FileChangeEntry = 'file' | 'directory' | 'symlink';

/**
 * Why undo and reapply cannot act on a change, recorded when it was made (never guessed later):
 * - `binary`: a side is not UTF-8 text (§8.4 undoes UTF-8 text only);
 * - `too_large`: a side is larger than 1 MiB;
 * - `not_recorded`: what was there before is not known (a link's previous target, the previous
 *   permission bits, a file that replaced an entry of another kind);
 * - `over_budget`: the call changed more than its record keeps (see the bash tool's bound).
 */
export type FileChangeUnrecorded = 'binary' | 'too_large' | 'not_recorded' | 'over_budget';

/**
 * One change of one entry, made by `write`, `edit` or a sandboxed `bash` command: every field of
 * the table of spec §8.4 under its own name, plus where it was written (`realPath`,
 * `displayPath`) and the entry's mode. Plain data: it survives a JSON round trip through a session
 * store; `parseFileChangeArtifact` checks it on the way back.
 *
 * `write` and `edit` record text files only: `entry` and `unrecorded` absent, both contents and
 * `afterHash` present. A bash command's change may also be a deletion (`afterHash` and
 * `afterContent` null), a folder or a link (`entry`; no contents or hashes, the link's target in
 * `beforeTarget`/`afterTarget`), or a file whose contents were not kept (`unrecorded`; hashes
 * where known, `size`): such a change is listed and shown, and undo refuses it with the reason.
 */
export interface FileChange {
  /** The ID of the change: the tool call ID for `write` / `edit`; `<call ID>.<n>` for the n-th change of a bash call. */
  readonly changeId: string;
  /** Not in the spec's table: the tool call that made it, when it made several changes (bash). Undo and reapply take it to mean all of them. */
  readonly callId?: string;
  /** The path argument as the model gave it (bash: the path as results show it). */
  readonly path: string;
  /**
   * Not in the spec's table: the canonical real path that was written (`CheckedPath.path`). Undo
   * and reapply write exactly this path (no working directory needed) and refuse when it now
   * resolves elsewhere.
   */
  readonly realPath: string;
  /** Not in the spec's table: how results showed the path (relative to the workspace when inside it). */
  readonly displayPath: string;
  readonly kind: FileChangeKind;
  /** Not in the spec's table: a folder or a link; absent for a file. */
  readonly entry?: FileChangeEntry;
  /** Lines marked `+` in `hunks` (0 without contents). */
  readonly additions: number;
  /** Lines marked `-` in `hunks` (0 without contents). */
  readonly deletions: number;
  /** Unified-diff hunks with three lines of context: Myers, or the §8.4 fallback above its limit. Empty without contents. */
  readonly hunks: readonly FileChangeHunk[];
  /** SHA-256 (lowercase hex) of the file's content before; `null` when created, for a folder or a link, or not known (`unrecorded`). */
  readonly beforeHash: string | null;
  /** SHA-256 (lowercase hex) of the file's content after; `null` when deleted, for a folder or a link, or not known (`unrecorded`). */
  readonly afterHash: string | null;
  /** The content before, which undo restores; `null` when there was none (created) or it was not recorded. */
  readonly beforeContent: string | null;
  /** The content after, which reapply restores; `null` when deleted or not recorded. */
  readonly afterContent: string | null;
  /** Not in the spec's table: permission bits after the change, used when reapply creates the entry again. */
  readonly mode?: number;
  /** Not in the spec's table: permission bits of a deleted entry, used when undo creates it again. */
  readonly beforeMode?: number;
  /** Not in the spec's table: the file's size in bytes after the change (before it, for a deletion). */
  readonly size?: number;
  /** Not in the spec's table: where a link pointed before (a deleted link). */
  readonly beforeTarget?: string;
  /** Not in the spec's table: where a link points after (a created or changed link). */
  readonly afterTarget?: string;
  /** Not in the spec's table: set when undo and reapply cannot act on the change, and why. */
  readonly unrecorded?: FileChangeUnrecorded;
  /** Whether the change is undone now. Core rewrites it after a successful undo or reapply. */
  readonly undone: boolean;
}
