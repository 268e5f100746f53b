/** The artifact `kind` of the summary of a call's file changes (architecture §3.10). */
export const FILE_CHANGE_SUMMARY_ARTIFACT_KIND = 'file_change_summary';

/**
 * What a sandboxed `bash` call did to the host's files as a whole: every change it applied is
 * counted here, while at most the first `MAX_BASH_FILE_CHANGES` are `file_change` artifacts (an
 * `npm install` changes tens of thousands of files; its record stays bounded). Plain data.
 */
export interface FileChangeSummary {
  /** The tool call ID; its file changes are `<callId>.<n>`. */
  readonly callId: string;
  /** Every change applied to the host, listed or not (folders and links included). */
  readonly counts: { readonly created: number; readonly modified: number; readonly deleted: number };
  /** How many of them are `file_change` artifacts of the same result. */
  readonly recorded: number;
  /** How many of those undo can act on (the others say why in `unrecorded`). */
  readonly undoable: number;
  /** False when more changes were applied than recorded: the call as a whole cannot be undone. */
  readonly complete: boolean;
  /** Changes the sandbox rules refused: never applied, so nothing to undo. */
  readonly refused: number;
  /**
   * Entries the host changed while the command ran (architecture §3.11): not applied, the host kept
   * its version; the command's is at `keptAt` where it had one. At most 100 listed (absent: none).
   */
  readonly conflicts?: readonly FileChangeSummaryConflict[];
}

/** One staged conflict as the record keeps it: the path as shown, what the command did, why, where its version is. */
export interface FileChangeSummaryConflict {
  readonly path: string;
  readonly operation: 'create' | 'modify' | 'delete';
  readonly reason: string;
  readonly keptAt?: string;
}

/** The `ToolArtifact` with the summary: for the host and the user interface, never the model (§8.1). */
export type FileChangeSummaryArtifact = {
  readonly kind: typeof FILE_CHANGE_SUMMARY_ARTIFACT_KIND;
  readonly summary: FileChangeSummary;
};
