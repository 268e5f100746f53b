import type { ToolArtifact } from '@openwork/tools-contract';

/** The artifact kind of a file change (§8.4). */
export const FILE_CHANGE_ARTIFACT_KIND = 'file_change';

/**
 * The fields of a file change (§8.4) that a store reads and maintains. The other fields (hunks,
 * hashes, contents, counts, the change's own `kind`…) belong to the tool that made the change and
 * are stored and returned exactly as given.
 */
export interface FileChangeFacts {
  /** The tool call id of the change (§8.4); unique within the session. */
  readonly changeId: string;
  /** The path argument the model gave. */
  readonly path: string;
  /** Whether the change is currently undone; the store rewrites it (§8.4). */
  readonly undone: boolean;
  readonly [field: string]: unknown;
}

/**
 * A `file_change` artifact as `@openwork/builtins` writes it: `{ kind: 'file_change', change }`.
 * The change sits under `change` so that its own `kind` (`created` | `modified`) keeps the
 * spec's name next to the artifact's `kind`.
 */
export interface FileChangeArtifact extends ToolArtifact {
  readonly kind: typeof FILE_CHANGE_ARTIFACT_KIND;
  readonly change: FileChangeFacts;
}

/** Whether `artifact` is a file-change artifact (by its `kind`; its fields are checked on append). */
export function isFileChangeArtifact(artifact: ToolArtifact): artifact is FileChangeArtifact {
  return artifact.kind === FILE_CHANGE_ARTIFACT_KIND;
}
