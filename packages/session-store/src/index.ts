// The public surface of @openwork/session-store. Adding a name here is a decision to publish it.
// The contract suite lives behind the `@openwork/session-store/contract` subpath (it needs vitest).

export type { SessionStore } from './session-store.js';
export { SESSION_MODES, type SessionMode } from './session-mode.js';
export type { ListSessionsOptions, NewSession, SessionChanges, SessionRecord } from './session-record.js';
export type {
  MessageMetadata,
  MessageRole,
  StoredAssistantMessage,
  StoredMessage,
  StoredMessageBase,
  StoredToolMessage,
  StoredUserMessage,
  ToolCallRecord,
} from './stored-message.js';
export type {
  LoadMessagesOptions,
  NewAssistantMessage,
  NewMessage,
  NewMessageBase,
  NewToolMessage,
  NewUserMessage,
} from './new-message.js';
export { FILE_CHANGE_ARTIFACT_KIND, isFileChangeArtifact, type FileChangeArtifact, type FileChangeFacts } from './file-change-artifact.js';
export type { FileChangeRecord, UndoneUpdate } from './file-change-record.js';
export {
  AGENT_RUN_STATES,
  FINAL_AGENT_RUN_STATES,
  isFinalAgentRunState,
  type AgentRunCreated,
  type AgentRunFinish,
  type AgentRunLease,
  type AgentRunRecord,
  type AgentRunResult,
  type AgentRunState,
  type ClaimAgentRunsOptions,
  type FinalAgentRunState,
  type ListMailboxOptions,
  type MailboxEntry,
  type NewAgentRun,
} from './agent-run.js';
export {
  MAX_PLAN_STEPS,
  MAX_PLAN_TEXT,
  PLAN_STEP_STATUSES,
  type NewSessionPlan,
  type PlanStep,
  type PlanStepStatus,
  type SessionPlan,
} from './session-plan.js';
export {
  MAX_BACKGROUND_TASK_COMMAND,
  MAX_BACKGROUND_TASK_TAIL,
  MAX_STORED_BACKGROUND_TASKS,
  STORED_BACKGROUND_TASK_STATES,
  type BackgroundTaskRecord,
  type NewBackgroundTaskRecord,
  type StoredBackgroundTaskState,
} from './background-task-record.js';
export { InMemorySessionStore, type InMemorySessionStoreOptions } from './in-memory-session-store.js';

// Errors (§ style: one base class, `isInstance` through a registered symbol).
export { SessionStoreError, hasSessionStoreErrorCode, type SessionStoreErrorCode } from './session-store-error.js';
export { InvalidRecordError } from './invalid-record-error.js';
export { SessionNotFoundError } from './session-not-found-error.js';
export { SessionExistsError } from './session-exists-error.js';
export { MessageConflictError, type MessageConflictReason } from './message-conflict-error.js';
export { ChangeNotFoundError } from './change-not-found-error.js';
export { UndoneConflictError } from './undone-conflict-error.js';
export { AgentRunNotFoundError } from './agent-run-not-found-error.js';
export { StoreUnavailableError, type StoreUnavailableReason } from './store-unavailable-error.js';
export { StoreCorruptError } from './store-corrupt-error.js';
export { IncompatibleSchemaError } from './incompatible-schema-error.js';
export { StoreClosedError } from './store-closed-error.js';

// For store implementations: every store checks, encodes and decodes records with these, so that
// all of them accept, reject and return exactly the same things.
export { systemClock, storeTimestamp, laterTimestamp, type StoreClock } from './store-clock.js';
export { prepareNewSession, checkSessionChanges, applySessionChanges } from './prepare-session.js';
export { prepareMessage, type PreparedFileChange, type PreparedMessage, type PreparedToolCall } from './prepared-message.js';
export type { MessageRow } from './message-row.js';
export { decodeSessionRow, type SessionRow } from './session-row.js';
export { decodeStoredMessage, decodeFileChange, rewriteArtifactUndone } from './decode-stored-message.js';
export { MessageLogRules, type MessageLogLookup } from './message-log-rules.js';
export { AgentRunRules, MAX_AGENT_TEXT, type PreparedAgentRun, type PreparedMailboxEntry } from './agent-run-rules.js';
export { PlanRules } from './plan-rules.js';
export { BackgroundTaskRules } from './background-task-rules.js';
export { checkListSessionsOptions, checkLoadMessagesOptions, checkUndoneUpdate } from './check-store-options.js';
export { checkRecordId, MAX_RECORD_ID_LENGTH } from './check-record-id.js';
