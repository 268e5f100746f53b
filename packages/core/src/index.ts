// The public surface of @openwork/core. Adding a name here is a decision to publish it.

// Runtime (architecture §4)
export { createRuntime } from './runtime/create-runtime.js';
export type { Runtime, RuntimeSandbox, RuntimeSubAgents } from './runtime/runtime.js';
export type { RuntimeOptions, RuntimePolicyOptions } from './runtime/runtime-options.js';

// Sessions and roles (§3, §4)
export type { Session } from './session/session.js';
export type { NewSessionOptions } from './session/new-session-options.js';
export type { SessionChangesInput } from './session/session-changes-input.js';
export { AGENT_ROLES, agentRoleTools, isAgentRole, type AgentRole } from './session/agent-role.js';
export type { ToolCallOptions, ToolCallOutcome } from './session/tool-call-options.js';

// Calls: decisions and approvals (§6.1, architecture §3.3, §4)
export type { CallPreparation } from './call/call-preparation.js';
export type { ApprovalAgent, ApprovalCard, ApprovalContext, ApprovalDanger, ApprovalDecision, ApprovalReason, Approver } from './call/approval.js';
export { renderApprovalCard } from './call/render-approval-card.js';

// Turns and models (§5)
export type { LanguageModel, LanguageModelRequest, LanguageModelStreamPart } from './model/language-model.js';
export type { ModelAssistantMessage, ModelMessage, ModelToolCall, ModelToolMessage, ModelUserMessage } from './model/model-message.js';
export { toModelMessages } from './model/to-model-messages.js';
export { IMAGE_ESTIMATED_BYTES, measureConversation, type ConversationSize } from './model/measure-conversation.js';
export { DEFAULT_MAX_STEPS, type TurnOptions } from './turn/turn-options.js';
export type { TurnOutcome, TurnStatus } from './turn/turn-outcome.js';

// Updates and progress (§8.3)
export type {
  AgentFinishedUpdate,
  AssistantTextUpdate,
  PlanUpdatedUpdate,
  FileChangesUpdatedUpdate,
  SessionUpdate,
  SessionUpdateListener,
  ToolCallFinishedUpdate,
  ToolCallProgressUpdate,
  ToolCallStartedUpdate,
  TurnFinishedUpdate,
  TurnStartedUpdate,
} from './updates/session-update.js';
export { MAX_PENDING_UPDATES, PROGRESS_QUEUE_CAPACITY } from './updates/progress-queue-capacity.js';

// Provider projections (plain data for the host's SDK; §8.1: no artifacts)
export {
  projectOpenAIChatRequest,
  type OpenAIChatMessage,
  type OpenAIChatRequest,
  type OpenAIChatTool,
  type OpenAIChatToolCall,
} from './providers/openai-chat-projection.js';
export {
  projectOpenAIResponsesRequest,
  type OpenAIResponsesInputItem,
  type OpenAIResponsesOutputContent,
  type OpenAIResponsesRequest,
  type OpenAIResponsesTool,
} from './providers/openai-responses-projection.js';
export {
  projectAnthropicMessagesRequest,
  type AnthropicContentBlock,
  type AnthropicImageBlock,
  type AnthropicMessage,
  type AnthropicMessagesRequest,
  type AnthropicTool,
} from './providers/anthropic-messages-projection.js';

// Control tools (§3): update_plan and the sub-agent tools (architecture §4)
export { UPDATE_PLAN_TOOL_ID } from './control/update-plan-tool.js';
export { AGENT_AWAIT_TOOL_ID, AGENT_LIST_TOOL_ID, AGENT_SEND_TOOL_ID } from './agents/agent-tools.js';
export { MAX_AGENT_OPERATIONS, MAX_AWAIT_MS, MAX_AWAIT_TARGETS } from './agents/agent-limits.js';
export { SUB_AGENT_DEFAULTS, type AgentModelSource, type SubAgentOptions } from './agents/sub-agent-options.js';

// conversation_history (§3)
export { CONVERSATION_HISTORY_TOOL_ID } from './history/conversation-history-tool.js';

// File changes (§8.4)
export type { FileChangesOutcome, FileChangesRecordFailed, FileChangesSessionActive } from './file-changes/file-changes-outcome.js';
export { renderFileChange } from './file-changes/render-file-change.js';
export type { RenderFileChangeOptions } from './file-changes/render-file-change.js';

// Spill retention (§8.2)
export { SPILL_RETENTION_MS } from './spill/spill-retention.js';
export { removeStaleSpillDirectories, type SpillRetentionOptions } from './spill/remove-stale-spill-directories.js';

// Errors
export { CoreError, hasCoreErrorCode, type CoreErrorCode } from './errors/core-error.js';
export { SessionActiveError, type SessionActivity } from './errors/session-active-error.js';
// For hosts' own "did you mean" (the CLI's commands), the same rule the toolset uses for tools.
export { closestName, revealHiddenCharacters } from '@openwork/tools-contract';
// What a host needs of the sandbox to pick and check a backend, through core (architecture §1: a
// host depends on core only).
export { describeStagingPlace, landlockScope, selectSandboxBackend, SandboxUnavailableError } from '@openwork/sandbox';
export type { SandboxAvailability, SandboxBackend, SandboxCommand, SandboxPolicy, WrappedCommand } from '@openwork/sandbox';
export { SANDBOX_MODULE_URL } from './runtime/sandbox-module.js';
