/** One hunk of a unified diff with 3 lines of context (§8.4). `lines` start with ' ', '-' or '+'. */
export interface FileChangeHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/**
 * The `file_change` artifact of §8.4, attached to a write or edit result that changed a file.
 * It goes to the host and the UI, never to the model (§8.1); core stores it with the tool message
 * and rewrites `undone`. Plain JSON data.
 */
export interface FileChangeArtifact {
  readonly kind: 'file_change';
  /** The tool call ID. */
  readonly changeId: string;
  /** The path argument as the model gave it. */
  readonly path: string;
  /** The canonical real path that was written (what undo and reapply touch). */
  readonly realPath: string;
  /** How results showed the path: relative to the workspace when inside it. */
  readonly displayPath: string;
  readonly changeKind: 'created' | 'modified';
  /** Exact numbers of added and deleted lines. */
  readonly additions: number;
  readonly deletions: number;
  readonly hunks: readonly FileChangeHunk[];
  /** SHA-256 (hex) of the content before; `null` when the file was created. */
  readonly beforeHash: string | null;
  readonly afterHash: string;
  /** UTF-8 content before (`null` when created) and after, for undo and reapply. */
  readonly beforeContent: string | null;
  readonly afterContent: string;
  /** Permission bits of the file after the change, restored by reapply. */
  readonly mode?: number;
  readonly undone: boolean;
  readonly [field: string]: unknown;
}
