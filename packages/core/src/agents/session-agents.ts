import type { AgentRunRecord, AgentRunState } from '@openwork/session-store';

/** One operation of `agent_send` (architecture §4, Denova's task model). */
export type AgentOperation =
  | { readonly kind: 'delegate'; readonly role: 'explorer' | 'default'; readonly prompt: string; readonly idempotencyKey?: string }
  | { readonly kind: 'message'; readonly agentId: string; readonly text: string }
  | { readonly kind: 'cancel'; readonly agentId: string };

/**
 * What one operation did. A receipt means "accepted and stored", never "done": the result comes
 * later, through the mailbox or `agent_await`.
 */
export type AgentReceipt =
  | { readonly ok: true; readonly kind: AgentOperation['kind']; readonly run: AgentRunRecord; readonly note: string }
  | { readonly ok: false; readonly kind: AgentOperation['kind']; readonly error: string };

/**
 * Where a child is for `agent_await`: its stored state, or `waiting_for_approval` while this
 * runtime asks the user about one of its calls (an interaction boundary).
 */
export type AgentWaitState = AgentRunState | 'waiting_for_approval';

export interface AgentStatus {
  readonly agentId: string;
  /** `undefined` when no child of this session has the id. */
  readonly run: AgentRunRecord | undefined;
  readonly state: AgentWaitState | 'unknown';
  /** Finished, failed, cancelled, interrupted or waiting for approval: not necessarily a success. */
  readonly ready: boolean;
}

/** A parent session's view of its children, bound to it by the runtime. */
export interface SessionAgents {
  send(operations: readonly AgentOperation[]): Promise<AgentReceipt[]>;
  /** Resolves when every target is ready, after `timeoutMs`, or when `signal` aborts; `0` reads once. */
  wait(agentIds: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<AgentStatus[]>;
  /** Marks the results `wait` showed as delivered, so the mailbox does not repeat them. */
  markShown(statuses: readonly AgentStatus[]): Promise<void>;
  list(): Promise<AgentRunRecord[]>;
}
