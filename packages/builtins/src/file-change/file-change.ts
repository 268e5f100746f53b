import type { FileChangeHunk } from './file-change-hunk.js';

/** `created`: nothing existed at the path before; `modified`: a file's content was replaced (§8.4). */
export type FileChangeKind = 'created' | 'modified';

/**
 * One content change made by `write` or `edit`: every field of the table of spec §8.4 under its
 * own name, plus where it was written (`realPath`, `displayPath`) and the file's mode. Plain data:
 * it survives a JSON round trip through a session store; `parseFileChangeArtifact` checks it on
 * the way back.
 */
export interface FileChange {
  /** The tool call ID of the `write` / `edit` call that made the change. */
  readonly changeId: string;
  /** The path argument as the model gave it. */
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
  /** Lines marked `+` in `hunks`. */
  readonly additions: number;
  /** Lines marked `-` in `hunks`. */
  readonly deletions: number;
  /** Unified-diff hunks with three lines of context: Myers, or the §8.4 fallback above its limit. */
  readonly hunks: readonly FileChangeHunk[];
  /** SHA-256 (lowercase hex) of the content before; `null` when the file was created. */
  readonly beforeHash: string | null;
  /** SHA-256 (lowercase hex) of the content after. */
  readonly afterHash: string;
  /** The content before, which undo restores; `null` when created (undo deletes the file). */
  readonly beforeContent: string | null;
  /** The content after, which reapply restores. */
  readonly afterContent: string;
  /** Not in the spec's table: permission bits after the change, used when reapply creates the file again. */
  readonly mode?: number;
  /** Whether the change is undone now. Core rewrites it after a successful undo or reapply. */
  readonly undone: boolean;
}
