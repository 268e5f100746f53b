export { createFileChange, type FileChangeInput } from './create-file-change.js';
export { DIFF_CONTEXT_LINES, MYERS_TRACE_LIMIT, diffFileContents, type DiffAlgorithm, type FileContentDiff } from './diff-file-contents.js';
export { FILE_CHANGE_ARTIFACT_KIND, type FileChangeArtifact } from './file-change-artifact.js';
export type { FileChange, FileChangeEntry, FileChangeKind, FileChangeUnrecorded } from './file-change.js';
export type { FileChangeEngineOptions } from './file-change-engine-options.js';
export { NO_NEWLINE_AT_END_OF_FILE, type FileChangeHunk } from './file-change-hunk.js';
export type {
  FileChangeConflict,
  FileChangeFailed,
  FileChangeFailure,
  FileChangeInvalidRequest,
  FileChangeMismatch,
  FileChangeNotRecorded,
  FileChangeOperation,
  FileChangeOutcome,
  FileChangePermissionDenied,
  FileChangeSuccess,
  RollbackFailed,
  UnrecordedChange,
  UnrestoredFile,
} from './file-change-outcome.js';
export { MAX_FILE_CHANGE_BYTES } from './max-file-change-bytes.js';
export { parseFileChangeArtifact, type FileChangeArtifactParse } from './parse-file-change-artifact.js';
export type { FileChangeRequest } from './plan-file-change-steps.js';
export { reapplyFileChanges } from './reapply-file-changes.js';
export { undoFileChanges } from './undo-file-changes.js';
export { FILE_CHANGE_SUMMARY_ARTIFACT_KIND, type FileChangeSummary, type FileChangeSummaryConflict, type FileChangeSummaryArtifact } from './file-change-summary.js';
