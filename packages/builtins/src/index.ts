// The public surface of @openwork/builtins. Adding a name here is a decision to publish it.

// Session context (§4, §6.2)
export { ToolSessionContext } from './context/tool-session-context.js';
export type { LocalSessionOptions, ToolSessionContextOptions } from './context/tool-session-context.js';
export { CheckedPath } from './context/checked-path.js';
export type { PathCheck } from './context/path-check.js';
export { expandHome, type HomeExpansion } from './context/expand-home.js';
export { isCredentialName, LOCAL_ENVIRONMENT_KEYS, localEnvironment, PASSED_ENVIRONMENT_NAMES, PASSED_ENVIRONMENT_PREFIXES, type LocalEnvironmentOptions } from './context/local-environment.js';
export { BuiltinsError } from './context/builtins-error.js';
export { sessionSandboxPolicy, type SessionPolicyOptions } from './context/session-sandbox-policy.js';

// Read before edit (§7.4)
export { FileObservations, type ObservationRejection } from './observations/file-observations.js';

// Spill (§8.2)
export { MAX_SESSION_SPILL_BYTES, MAX_SESSION_SPILL_FILES, SpillDirectory, type SpillDirectoryOptions, type SpillPruning } from './spill/spill-directory.js';
export type { SpillLocation } from './spill/spill-location.js';
export { SpillWriter, type SpillOutcome } from './spill/spill-writer.js';

// File changes (§8.4)
export {
  DIFF_CONTEXT_LINES,
  FILE_CHANGE_ARTIFACT_KIND,
  FILE_CHANGE_SUMMARY_ARTIFACT_KIND,
  MAX_FILE_CHANGE_BYTES,
  MYERS_TRACE_LIMIT,
  NO_NEWLINE_AT_END_OF_FILE,
  createFileChange,
  diffFileContents,
  parseFileChangeArtifact,
  reapplyFileChanges,
  undoFileChanges,
} from './file-change/index.js';
export type {
  DiffAlgorithm,
  FileChange,
  FileChangeArtifact,
  FileChangeArtifactParse,
  FileChangeConflict,
  FileChangeEntry,
  FileChangeEngineOptions,
  FileChangeFailed,
  FileChangeFailure,
  FileChangeHunk,
  FileChangeInput,
  FileChangeInvalidRequest,
  FileChangeKind,
  FileChangeMismatch,
  FileChangeNotRecorded,
  FileChangeOperation,
  FileChangeOutcome,
  FileChangePermissionDenied,
  FileChangeRequest,
  FileChangeSuccess,
  FileChangeSummary,
  FileChangeSummaryConflict,
  FileChangeSummaryArtifact,
  FileChangeUnrecorded,
  FileContentDiff,
  RollbackFailed,
  UnrecordedChange,
  UnrestoredFile,
} from './file-change/index.js';
// Escalation parameters (§7.5) for tools of this package and their inspection (§6.1)
export { escalationInputShape, escalationRequest, requireJustification } from './escalation/escalation-parameters.js';
export type { EscalationInput, EscalationRequest } from './escalation/escalation-parameters.js';

// The tools (§7)
export { readTool } from './read/read-tool.js';
export { writeTool } from './write/write-tool.js';
export { editTool } from './edit/edit-tool.js';
export { listTool } from './list/list-tool.js';
export { grepTool } from './search/grep-tool.js';
export { globTool } from './search/glob-tool.js';
export { bashTool } from './bash/bash-tool.js';
export { DEFAULT_TIMEOUT_MS, MAX_COMMAND_BYTES, MAX_TIMEOUT_MS } from './bash/bash-limits.js';
export { bashOutputTool } from './bash/background/bash-output-tool.js';
export { bashInputTool } from './bash/background/bash-input-tool.js';
export { bashKillTool } from './bash/background/bash-kill-tool.js';
export { BackgroundTasks } from './bash/background/background-tasks.js';
export type { BackgroundTaskJournal, BackgroundTaskJournalEntry } from './bash/background/background-task-journal.js';
export { findTerminalProgram, type TerminalProgram } from './bash/background/terminal-program.js';
export { cleanTerminalOutput } from './text/clean-terminal-output.js';
export type { BackgroundTask, TaskRead } from './bash/background/background-task.js';
export type { BackgroundTaskArtifact, BackgroundTaskState } from './bash/background/background-task-state.js';
export { DEFAULT_YIELD_MS, MAX_ENDED_TASKS_KEPT, MAX_INPUT_BYTES, MAX_RUNNING_TASKS, MAX_WAIT_MS } from './bash/background/background-limits.js';

// Registry and toolsets (§3)
export { builtinTools, type BuiltinTool } from './registry/builtin-tools.js';
export { BUILTIN_AGENT_TOOLS, type BuiltinAgent } from './registry/builtin-agent.js';
export { builtinRegistry, builtinToolsetConfig, finalizeBuiltinToolset } from './registry/builtin-registry.js';
export type { FinalizeBuiltinToolsetOptions } from './registry/builtin-registry.js';
export type { DangerousCommandDecision, DangerousCommandRequest } from './bash/dangerous-command-gate.js';
export { searchEngineStatus } from './search/load-re2.js';
