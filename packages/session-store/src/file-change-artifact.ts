import type { ToolArtifact } from '@openwork/tools-contract';

/** The artifact kind of a file change (§8.4). */
export const FILE_CHANGE_ARTIFACT_KIND = 'file_change';

/**
 * The fields of a `file_change` artifact (§8.4) that a store reads and maintains. The other
 * fields (hunks, hashes, contents, counts…) belong to the tool that made the change and are
 * stored and returned exactly as given.
 */
export interface FileChangeArtifact extends ToolArtifact {
  readonly kind: typeof FILE_CHANGE_ARTIFACT_KIND;
  /** The tool call id of the change (§8.4); unique within the session. */
  readonly changeId: string;
  /** The path argument the model gave. */
  readonly path: string;
  /** Whether the change is currently undone; the store rewrites it (§8.4). */
  readonly undone: boolean;
}

/** Whether `artifact` is a file-change artifact (by its `kind`; its fields are checked on append). */
export function isFileChangeArtifact(artifact: ToolArtifact): artifact is FileChangeArtifact {
  return artifact.kind === FILE_CHANGE_ARTIFACT_KIND;
}
