/**
 * A sub-agent's run (architecture §4, Denova's task model): a child session started by a parent
 * session's `agent_send`, and the state of its work. The agent id is the child session's id, so
 * that the reference alone reopens the child after a cold restart. Plain, frozen, JSON data.
 */
export interface AgentRunRecord {
  /** The agent id, which is also the child session's id. */
  readonly id: string;
  readonly parentSessionId: string;
  /** The child's agent role (`explorer`, `default`). */
  readonly role: string;
  /** What the child was asked in its current round: the delegate's prompt, or the last follow-up message. */
  readonly prompt: string;
  readonly state: AgentRunState;
  /** 1 for a child of a root session, 2 for a child of a child. */
  readonly depth: number;
  /** The parent's key that makes a delegate happen once; `null` when none was given. */
  readonly idempotencyKey: string | null;
  /** 1 for the delegate; each follow-up message after a result starts the next round. */
  readonly round: number;
  /** How many times a host took up the current round (a resumed run counts again). */
  readonly attempts: number;
  /** The result of the round once it ended, else `null`. */
  readonly result: AgentRunResult | null;
  /** The host whose lease lets it execute the run, else `null`. */
  readonly leaseOwner: string | null;
  /** When that lease ends unless renewed (ISO 8601 UTC), else `null`. */
  readonly leaseExpiresAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Where a run is: `queued` (stored, no host has started it), `running` (a host holds its lease),
 * or ended — `finished` (the child's turn completed), `failed`, `cancelled` or `interrupted` (it
 * was cut off and could not be resumed; the result holds what it had).
 */
export type AgentRunState = 'queued' | 'running' | 'finished' | 'failed' | 'cancelled' | 'interrupted';

/** The states in which a round has ended and its result is in the mailbox. */
export type FinalAgentRunState = Extract<AgentRunState, 'finished' | 'failed' | 'cancelled' | 'interrupted'>;

export const AGENT_RUN_STATES: readonly AgentRunState[] = Object.freeze(['queued', 'running', 'finished', 'failed', 'cancelled', 'interrupted']);
export const FINAL_AGENT_RUN_STATES: readonly FinalAgentRunState[] = Object.freeze(['finished', 'failed', 'cancelled', 'interrupted']);

/** Whether `state` is an ended round's. */
export function isFinalAgentRunState(state: AgentRunState): state is FinalAgentRunState {
  return (FINAL_AGENT_RUN_STATES as readonly string[]).includes(state);
}

/** What a round ended with: the child's final text and, unless it finished, why not. */
export interface AgentRunResult {
  readonly text: string;
  readonly error?: string;
}

/** Input of `createAgentRun`: the run and its child session, created together. */
export interface NewAgentRun {
  /** The agent id and child session id (1–200 characters); a random UUID when omitted. */
  readonly id?: string;
  readonly parentSessionId: string;
  readonly role: string;
  readonly prompt: string;
  /** 1 or 2. */
  readonly depth: number;
  /** A second run with the same key under the same parent is never created: the first is returned. */
  readonly idempotencyKey?: string;
  /** The child session's workspace roots and mode. */
  readonly child: { readonly workspaceRoots: readonly string[]; readonly mode: 'read-only' | 'workspace-write' | 'full-access' };
}

/** What `createAgentRun` did: `created: false` when the idempotency key named an existing run. */
export interface AgentRunCreated {
  readonly run: AgentRunRecord;
  readonly created: boolean;
}

/** A lease request: the host's id, and how long the lease lasts unless renewed. */
export interface AgentRunLease {
  readonly owner: string;
  /** Milliseconds, 1–3,600,000. */
  readonly leaseMs: number;
}

/** Input of `claimAgentRuns`: a lease for each run taken, at most `limit` runs. */
export interface ClaimAgentRunsOptions extends AgentRunLease {
  readonly limit: number;
}

/**
 * Input of `finishAgentRun`. `owner` is the host that executed the round: it must still hold the
 * lease. `owner: null` ends the round whoever holds it (a cancel, or marking a lost run interrupted).
 */
export interface AgentRunFinish {
  readonly owner: string | null;
  readonly state: FinalAgentRunState;
  readonly result: AgentRunResult;
}

/** One result in a parent's completion mailbox, delivered to the parent once. */
export interface MailboxEntry {
  readonly parentSessionId: string;
  /** 1, 2, 3, … in the order the results arrived (gapless per parent). */
  readonly sequence: number;
  readonly agentId: string;
  readonly round: number;
  readonly state: FinalAgentRunState;
  readonly result: AgentRunResult;
  readonly delivered: boolean;
  readonly createdAt: string;
}

/** Options of `listMailbox`. */
export interface ListMailboxOptions {
  /** Only entries not yet delivered. */
  readonly undelivered?: boolean;
}
