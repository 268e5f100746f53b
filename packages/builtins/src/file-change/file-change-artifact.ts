import type { FileChangeHunk } from './file-change-hunk.js';

export type { FileChangeHunk } from './file-change-hunk.js';

/** The artifact `kind` of a file change (§8.4). */
export const FILE_CHANGE_ARTIFACT_KIND = 'file_change';

/** `created`: nothing existed at the path before; `modified`: a file's content was replaced (§8.4). */
export type FileChangeKind = 'created' | 'modified';

/**
 * The `file_change` artifact of §8.4, attached to a `write` or `edit` result that changed a file.
 * It goes to the host and the user interface, never to the model (§8.1); core stores it with the
 * tool message and rewrites `undone`. Plain data: it survives a JSON round trip through a session
 * store, and `parseFileChangeArtifact` checks it on the way back.
 *
 * Every field of the spec's table is here under its own name, except the table's `kind`
 * (`created` | `modified`), which is `changeKind`: `kind` is the artifact's kind, `file_change`,
 * as every `ToolArtifact` has one.
 */
export interface FileChangeArtifact {
  readonly kind: typeof FILE_CHANGE_ARTIFACT_KIND;
  /** The tool call ID of the `write` / `edit` call that made the change. */
  readonly changeId: string;
  /** The path argument as the model gave it. */
  readonly path: string;
  /**
   * Not in the spec's table: the canonical real path that was written. Undo and reapply write
   * exactly this path (no working directory needed), and refuse when it now resolves elsewhere.
   */
  readonly realPath: string;
  /** Not in the spec's table: how results showed the path (relative to the workspace when inside it). */
  readonly displayPath: string;
  /** The spec's `kind`. */
  readonly changeKind: FileChangeKind;
  /** Lines marked `+` in `hunks`. */
  readonly additions: number;
  /** Lines marked `-` in `hunks`. */
  readonly deletions: number;
  /** Unified-diff hunks with three lines of context: Myers, or the §8.4 fallback above its limit. */
  readonly hunks: readonly FileChangeHunk[];
  /** SHA-256 (lowercase hex) of the UTF-8 content before; `null` when the file was created. */
  readonly beforeHash: string | null;
  /** SHA-256 (lowercase hex) of the UTF-8 content after. */
  readonly afterHash: string;
  /** The content before, which undo restores; `null` when created (undo deletes the file). */
  readonly beforeContent: string | null;
  /** The content after, which reapply restores. */
  readonly afterContent: string;
  /** Not in the spec's table: permission bits of the file after the change, used when reapply creates it again. */
  readonly mode?: number;
  /** Whether the change is undone now. Core rewrites it after a successful undo or reapply. */
  readonly undone: boolean;
  readonly [field: string]: unknown;
}
