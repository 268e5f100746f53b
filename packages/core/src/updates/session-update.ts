import type { AgentRunResult, FinalAgentRunState, SessionPlan, StoredToolMessage } from '@openwork/session-store';
import type { ToolId, ToolProgress, ToolResult } from '@openwork/tools-contract';
import type { TurnStatus } from '../turn/turn-outcome.js';

/**
 * What a session tells its subscribers (architecture §4, spec §8.3), in order. `turnId` is `null`
 * for a call made outside a model turn (`Session.callTool`).
 */
export type SessionUpdate =
  | TurnStartedUpdate
  | AssistantTextUpdate
  | ToolCallStartedUpdate
  | ToolCallProgressUpdate
  | ToolCallFinishedUpdate
  | TurnFinishedUpdate
  | FileChangesUpdatedUpdate
  | AgentFinishedUpdate
  | PlanUpdatedUpdate;

export interface TurnStartedUpdate {
  readonly type: 'turn_started';
  readonly sessionId: string;
  readonly turnId: string;
}

/** A piece of the model's text as it streams. The whole text is in the stored assistant message. */
export interface AssistantTextUpdate {
  readonly type: 'assistant_text';
  readonly sessionId: string;
  readonly turnId: string;
  readonly text: string;
}

/** A call is about to be checked, approved and run. */
export interface ToolCallStartedUpdate {
  readonly type: 'tool_call_started';
  readonly sessionId: string;
  readonly turnId: string | null;
  readonly callId: string;
  readonly toolId: ToolId;
  /** The arguments as the model sent them. */
  readonly input: unknown;
}

/**
 * §8.3: progress of a running call, through a bounded queue of 64 per subscriber — when a
 * subscriber falls that far behind, further progress for it is dropped. Never stored.
 */
export interface ToolCallProgressUpdate {
  readonly type: 'tool_call_progress';
  readonly sessionId: string;
  readonly turnId: string | null;
  readonly callId: string;
  readonly toolId: ToolId;
  readonly progress: ToolProgress;
}

/**
 * The one final result of a call (§8.3), always after its progress, with its artifacts (§8.4:
 * "tool_call_finished 中发给界面"). `message` is the stored tool message, or `null` when the
 * call was not recorded (or recording it failed).
 */
export interface ToolCallFinishedUpdate {
  readonly type: 'tool_call_finished';
  readonly sessionId: string;
  readonly turnId: string | null;
  readonly callId: string;
  readonly toolId: ToolId;
  readonly result: ToolResult;
  readonly message: StoredToolMessage | null;
}

export interface TurnFinishedUpdate {
  readonly type: 'turn_finished';
  readonly sessionId: string;
  readonly turnId: string;
  readonly status: TurnStatus;
  /** Why a `failed` turn failed. */
  readonly error?: string;
}

/** §8.4: an undo or reapply changed files, and the stored artifacts now say `undone`. */
export interface FileChangesUpdatedUpdate {
  readonly type: 'file_changes_updated';
  readonly sessionId: string;
  readonly changeIds: readonly string[];
  readonly undone: boolean;
}

/**
 * A child agent of this session ended a round (architecture §4): published on the parent by the
 * runtime that ran the child, when the result reaches the mailbox. The model gets the same result
 * once, at the start of its next request (or from `agent_await`).
 */
export interface AgentFinishedUpdate {
  readonly type: 'agent_finished';
  /** The parent session. */
  readonly sessionId: string;
  readonly agentId: string;
  readonly role: string;
  readonly round: number;
  readonly state: FinalAgentRunState;
  readonly result: AgentRunResult;
}

/** `update_plan` stored a new plan for this session (spec §3). */
export interface PlanUpdatedUpdate {
  readonly type: 'plan_updated';
  readonly sessionId: string;
  readonly plan: SessionPlan;
}

/**
 * Receives updates. It is called synchronously; returning a promise makes the session wait for
 * it before delivering this subscriber's next update (its progress queues meanwhile, up to 64).
 * A throw or a rejection loses that update for this subscriber only and never affects a call.
 */
export type SessionUpdateListener = (update: SessionUpdate) => unknown;
