import {
  AGENT_RUN_STATES,
  FINAL_AGENT_RUN_STATES,
  isFinalAgentRunState,
  type AgentRunFinish,
  type AgentRunLease,
  type AgentRunRecord,
  type AgentRunResult,
  type ClaimAgentRunsOptions,
  type FinalAgentRunState,
  type MailboxEntry,
  type NewAgentRun,
} from './agent-run.js';
import { checkColumnText, checkRecordId, describeValue } from './check-record-id.js';
import { InvalidRecordError } from './invalid-record-error.js';
import { prepareNewSession } from './prepare-session.js';
import type { SessionRecord } from './session-record.js';
import { StoreCorruptError } from './store-corrupt-error.js';

/** Longest prompt or result text a run keeps (characters). */
export const MAX_AGENT_TEXT = 1_000_000;
const MAX_LEASE_MS = 3_600_000;

/** A new run and its child session, checked, as every store writes them. */
export interface PreparedAgentRun {
  readonly run: AgentRunRecord;
  readonly child: SessionRecord;
}

/** A mailbox entry before the store numbers it. */
export type PreparedMailboxEntry = Omit<MailboxEntry, 'sequence'>;

/**
 * The rules of agent runs, once for every store (architecture §4): a store reads the run under its
 * write lock, asks these what the new record is (or `undefined` when the compare-and-set fails),
 * and writes it. So every store accepts and refuses exactly the same transitions.
 */
export const AgentRunRules = Object.freeze({
  prepare(input: NewAgentRun, timestamp: string): PreparedAgentRun {
    if (typeof input !== 'object' || input === null) throw new InvalidRecordError(`a new agent run must be an object, got ${describeValue(input)}`);
    const id = input.id === undefined ? globalThis.crypto.randomUUID() : checkRecordId(input.id, 'agent id');
    const parentSessionId = checkRecordId(input.parentSessionId, 'parent session id');
    if (parentSessionId === id) throw new InvalidRecordError(`agent ${JSON.stringify(id)} cannot be its own parent`);
    const role = checkRecordId(input.role, 'agent role');
    const prompt = checkText(input.prompt, 'prompt');
    if (input.depth !== 1 && input.depth !== 2) throw new InvalidRecordError(`agent depth must be 1 or 2, got ${describeValue(input.depth)}`);
    const idempotencyKey = input.idempotencyKey === undefined ? null : checkRecordId(input.idempotencyKey, 'idempotency key');
    if (typeof input.child !== 'object' || input.child === null) throw new InvalidRecordError('a new agent run needs child: { workspaceRoots, mode }');
    const child = prepareNewSession({ id, workspaceRoots: input.child.workspaceRoots, mode: input.child.mode, agentRole: role }, timestamp);
    const run: AgentRunRecord = Object.freeze({
      id,
      parentSessionId,
      role,
      prompt,
      state: 'queued',
      depth: input.depth,
      idempotencyKey,
      round: 1,
      attempts: 0,
      result: null,
      leaseOwner: null,
      leaseExpiresAt: null,
      createdAt: timestamp,
      updatedAt: timestamp,
    });
    return { run, child };
  },

  checkLease<T extends AgentRunLease>(lease: T): T {
    if (typeof lease !== 'object' || lease === null) throw new InvalidRecordError('a lease must be { owner, leaseMs }');
    checkRecordId(lease.owner, 'lease owner');
    if (!Number.isSafeInteger(lease.leaseMs) || lease.leaseMs < 1 || lease.leaseMs > MAX_LEASE_MS) {
      throw new InvalidRecordError(`leaseMs must be a whole number of milliseconds from 1 to ${MAX_LEASE_MS}, got ${describeValue(lease.leaseMs)}`);
    }
    return lease;
  },

  checkClaimMany(options: ClaimAgentRunsOptions): ClaimAgentRunsOptions {
    AgentRunRules.checkLease(options);
    if (!Number.isSafeInteger(options.limit) || options.limit < 1 || options.limit > 1000) {
      throw new InvalidRecordError(`limit must be a whole number from 1 to 1000, got ${describeValue(options.limit)}`);
    }
    return options;
  },

  /** Whether a host may take the run now: not ended, and no live lease of another host. */
  claimable(run: AgentRunRecord, owner: string, now: Date): boolean {
    if (isFinalAgentRunState(run.state)) return false;
    return run.leaseOwner === null || run.leaseOwner === owner || run.leaseExpiresAt === null || run.leaseExpiresAt <= now.toISOString();
  },

  /** Takes or renews the lease. A new holder counts as a new attempt; its own renewal does not. */
  claim(run: AgentRunRecord, lease: AgentRunLease, now: Date): AgentRunRecord | undefined {
    if (!AgentRunRules.claimable(run, lease.owner, now)) return undefined;
    const renewal = run.leaseOwner === lease.owner && run.state === 'running';
    return Object.freeze({
      ...run,
      state: 'running',
      attempts: renewal ? run.attempts : run.attempts + 1,
      leaseOwner: lease.owner,
      leaseExpiresAt: new Date(now.getTime() + lease.leaseMs).toISOString(),
      updatedAt: later(run.updatedAt, now.toISOString()),
    });
  },

  /** Gives the lease up (a host closing), so another host may take the run at once. */
  release(run: AgentRunRecord, owner: string, now: Date): AgentRunRecord | undefined {
    if (run.leaseOwner !== owner || isFinalAgentRunState(run.state)) return undefined;
    return Object.freeze({ ...run, leaseOwner: null, leaseExpiresAt: null, updatedAt: later(run.updatedAt, now.toISOString()) });
  },

  /** Ends the round and makes its mailbox entry; `undefined` when it ended already or the lease is another's. */
  finish(run: AgentRunRecord, finish: AgentRunFinish, now: Date): { run: AgentRunRecord; entry: PreparedMailboxEntry } | undefined {
    const checked = checkFinish(finish);
    if (isFinalAgentRunState(run.state)) return undefined;
    if (checked.owner !== null && run.leaseOwner !== checked.owner) return undefined;
    const timestamp = later(run.updatedAt, now.toISOString());
    const ended: AgentRunRecord = Object.freeze({ ...run, state: checked.state, result: checked.result, leaseOwner: null, leaseExpiresAt: null, updatedAt: timestamp });
    const entry: PreparedMailboxEntry = Object.freeze({
      parentSessionId: run.parentSessionId,
      agentId: run.id,
      round: run.round,
      state: checked.state,
      result: checked.result,
      delivered: false,
      createdAt: timestamp,
    });
    return { run: ended, entry };
  },

  /** Starts the next round with a follow-up message; `undefined` while the current round runs. */
  reopen(run: AgentRunRecord, prompt: string, now: Date): AgentRunRecord | undefined {
    const text = checkText(prompt, 'message');
    if (!isFinalAgentRunState(run.state)) return undefined;
    return Object.freeze({
      ...run,
      prompt: text,
      state: 'queued',
      round: run.round + 1,
      attempts: 0,
      result: null,
      leaseOwner: null,
      leaseExpiresAt: null,
      updatedAt: later(run.updatedAt, now.toISOString()),
    });
  },

  /** The JSON text a store keeps for a run. */
  encode(run: AgentRunRecord): string {
    return JSON.stringify(run);
  },

  decode(text: string): AgentRunRecord {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new StoreCorruptError('an agent run cannot be read: its record is not valid JSON; the database was damaged or written by other software', { cause: error });
    }
    const run = value as AgentRunRecord;
    if (typeof run !== 'object' || run === null || typeof run.id !== 'string' || !AGENT_RUN_STATES.includes(run.state)) {
      throw new StoreCorruptError('an agent run cannot be read: its record is not an agent run; the database was damaged or written by other software');
    }
    return Object.freeze({ ...run, result: run.result === null ? null : Object.freeze({ ...run.result }) });
  },

  /** The JSON text a store keeps for a mailbox entry's state and result. */
  encodeEntry(entry: PreparedMailboxEntry): string {
    return JSON.stringify({ state: entry.state, result: entry.result });
  },

  decodeEntry(row: { parentSessionId: string; sequence: number; agentId: string; round: number; body: string; delivered: boolean; createdAt: string }): MailboxEntry {
    let body: { state: FinalAgentRunState; result: AgentRunResult };
    try {
      body = JSON.parse(row.body) as typeof body;
    } catch (error) {
      throw new StoreCorruptError(`mailbox entry ${row.sequence} of session ${JSON.stringify(row.parentSessionId)} is not valid JSON`, { cause: error });
    }
    return Object.freeze({
      parentSessionId: row.parentSessionId,
      sequence: row.sequence,
      agentId: row.agentId,
      round: row.round,
      state: body.state,
      result: Object.freeze({ ...body.result }),
      delivered: row.delivered,
      createdAt: row.createdAt,
    });
  },

  checkSequences(sequences: readonly number[]): readonly number[] {
    if (!Array.isArray(sequences) || sequences.some((sequence) => !Number.isSafeInteger(sequence) || sequence < 1)) {
      throw new InvalidRecordError('mailbox sequences must be a list of positive whole numbers');
    }
    return [...new Set(sequences)];
  },
});

function checkFinish(finish: AgentRunFinish): AgentRunFinish {
  if (typeof finish !== 'object' || finish === null) throw new InvalidRecordError('finishAgentRun needs { owner, state, result }');
  if (finish.owner !== null) checkRecordId(finish.owner, 'lease owner');
  if (!(FINAL_AGENT_RUN_STATES as readonly string[]).includes(finish.state)) {
    throw new InvalidRecordError(`a run ends finished, failed, cancelled or interrupted, not ${describeValue(finish.state)}`);
  }
  const result = finish.result;
  if (typeof result !== 'object' || result === null) throw new InvalidRecordError('finishAgentRun needs result: { text, error? }');
  const text = checkText(result.text, 'result text', true);
  const error = result.error === undefined ? undefined : checkText(result.error, 'result error', true);
  return { owner: finish.owner, state: finish.state, result: Object.freeze(error === undefined ? { text } : { text, error }) };
}

function checkText(value: unknown, what: string, emptyAllowed = false): string {
  const text = checkColumnText(value, what);
  if (!emptyAllowed && text.trim() === '') throw new InvalidRecordError(`${what} must not be empty`);
  if (text.length > MAX_AGENT_TEXT) throw new InvalidRecordError(`${what} is ${text.length} characters long; the limit is ${MAX_AGENT_TEXT}`);
  return text;
}

function later(current: string, candidate: string): string {
  return candidate > current ? candidate : current;
}
