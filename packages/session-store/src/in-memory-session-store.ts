import type {
  AgentRunCreated,
  AgentRunFinish,
  AgentRunLease,
  AgentRunRecord,
  ClaimAgentRunsOptions,
  ListMailboxOptions,
  MailboxEntry,
  NewAgentRun,
} from './agent-run.js';
import { AgentRunNotFoundError } from './agent-run-not-found-error.js';
import { AgentRunRules, type PreparedMailboxEntry } from './agent-run-rules.js';
import { checkRecordId } from './check-record-id.js';
import { PlanRules } from './plan-rules.js';
import { BackgroundTaskRules } from './background-task-rules.js';
import { MAX_STORED_BACKGROUND_TASKS, type BackgroundTaskRecord, type NewBackgroundTaskRecord } from './background-task-record.js';
import type { NewSessionPlan, SessionPlan } from './session-plan.js';
import { checkListSessionsOptions, checkLoadMessagesOptions, checkUndoneUpdate } from './check-store-options.js';
import { ChangeNotFoundError } from './change-not-found-error.js';
import { decodeFileChange, decodeStoredMessage, rewriteArtifactUndone } from './decode-stored-message.js';
import type { FileChangeRecord, UndoneUpdate } from './file-change-record.js';
import type { MessageRow } from './message-row.js';
import { MessageLogRules, type MessageLogLookup } from './message-log-rules.js';
import type { LoadMessagesOptions, NewMessage } from './new-message.js';
import { applySessionChanges, checkSessionChanges, prepareNewSession } from './prepare-session.js';
import { prepareMessage } from './prepared-message.js';
import { SessionExistsError } from './session-exists-error.js';
import { SessionNotFoundError } from './session-not-found-error.js';
import type { ListSessionsOptions, NewSession, SessionChanges, SessionRecord } from './session-record.js';
import type { SessionStore } from './session-store.js';
import { laterTimestamp, storeTimestamp, systemClock, type StoreClock } from './store-clock.js';
import { StoreClosedError } from './store-closed-error.js';
import type { StoredMessage } from './stored-message.js';
import { UndoneConflictError } from './undone-conflict-error.js';

/** Options of `InMemorySessionStore`. */
export interface InMemorySessionStoreOptions {
  /** Source of `createdAt` / `updatedAt`; the system clock by default. */
  readonly now?: StoreClock;
}

interface ToolCallEntry {
  readonly toolId: string;
  readonly callSequence: number;
  resultSequence: number | null;
}

interface ChangeEntry {
  readonly sequence: number;
  readonly artifactIndex: number;
  undone: boolean;
}

interface MemoryParent {
  readonly mailbox: MailboxEntry[];
}

interface MemorySession {
  record: SessionRecord;
  readonly messages: MessageRow[];
  readonly messageSequences: Map<string, number>;
  readonly toolCalls: Map<string, ToolCallEntry>;
  readonly changes: Map<string, ChangeEntry>;
}

/**
 * A `SessionStore` that keeps everything in this process's memory: for tests, short-lived tools
 * and as the reference the contract suite is written against. It keeps records as the same JSON
 * text as the database stores, so it returns exactly what they return. Nothing survives the
 * process.
 */
export class InMemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, MemorySession>();
  /** Runs by agent id, in creation order (a Map keeps insertion order). */
  readonly #runs = new Map<string, AgentRunRecord>();
  readonly #mailboxes = new Map<string, MemoryParent>();
  readonly #plans = new Map<string, SessionPlan>();
  readonly #backgroundTasks = new Map<string, Map<string, BackgroundTaskRecord>>();
  readonly #now: StoreClock;
  #closed = false;

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.#now = options.now ?? systemClock;
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    this.#open('createSession');
    const record = prepareNewSession(session, storeTimestamp(this.#now));
    if (this.#sessions.has(record.id)) throw new SessionExistsError(record.id);
    this.#sessions.set(record.id, {
      record,
      messages: [],
      messageSequences: new Map(),
      toolCalls: new Map(),
      changes: new Map(),
    });
    return record;
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    this.#open('getSession');
    checkRecordId(sessionId, 'session id');
    return this.#sessions.get(sessionId)?.record;
  }

  async listSessions(options?: ListSessionsOptions): Promise<SessionRecord[]> {
    this.#open('listSessions');
    const { limit } = checkListSessionsOptions(options);
    const records = [...this.#sessions.values()]
      .map((session) => session.record)
      .sort((a, b) => (a.updatedAt === b.updatedAt ? compare(a.id, b.id) : compare(b.updatedAt, a.updatedAt)));
    return limit === null ? records : records.slice(0, limit);
  }

  async updateSession(sessionId: string, changes: SessionChanges): Promise<SessionRecord> {
    this.#open('updateSession');
    const checked = checkSessionChanges(changes);
    const session = this.#session(sessionId);
    session.record = applySessionChanges(session.record, checked, storeTimestamp(this.#now));
    return session.record;
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    this.#open('deleteSession');
    checkRecordId(sessionId, 'session id');
    // As the SQL stores cascade: the session's runs (as parent or child), its mailbox and plan go with it.
    for (const [id, run] of this.#runs) if (run.parentSessionId === sessionId || id === sessionId) this.#runs.delete(id);
    this.#mailboxes.delete(sessionId);
    this.#plans.delete(sessionId);
    this.#backgroundTasks.delete(sessionId);
    return this.#sessions.delete(sessionId);
  }

  async appendMessage(sessionId: string, message: NewMessage): Promise<StoredMessage> {
    this.#open('appendMessage');
    const prepared = prepareMessage(message);
    const session = this.#session(sessionId);
    const sameSequence = session.messageSequences.get(prepared.id);
    const same = sameSequence === undefined ? undefined : this.#row(session, sameSequence);
    const lookup: MessageLogLookup = {
      call: (id) => session.toolCalls.get(id),
      change: (id) => session.changes.get(id)?.sequence,
    };
    if (MessageLogRules.checkAppend(sessionId, prepared, same, lookup) && same !== undefined) return decodeStoredMessage(same);

    const timestamp = storeTimestamp(this.#now);
    const sequence = session.record.messageCount + 1;
    const row: MessageRow = { sessionId, id: prepared.id, sequence, role: prepared.role, body: prepared.body, createdAt: timestamp };
    session.messages.push(row);
    session.messageSequences.set(prepared.id, sequence);
    for (const call of prepared.toolCalls) {
      session.toolCalls.set(call.id, { toolId: call.toolId, callSequence: sequence, resultSequence: null });
    }
    if (prepared.answeredCall !== null) {
      const call = session.toolCalls.get(prepared.answeredCall.id);
      if (call !== undefined) call.resultSequence = sequence;
    }
    for (const change of prepared.fileChanges) {
      session.changes.set(change.changeId, { sequence, artifactIndex: change.artifactIndex, undone: change.undone });
    }
    session.record = Object.freeze({
      ...session.record,
      messageCount: sequence,
      updatedAt: laterTimestamp(session.record.updatedAt, timestamp),
    });
    return decodeStoredMessage(row);
  }

  async loadMessages(sessionId: string, options?: LoadMessagesOptions): Promise<StoredMessage[]> {
    this.#open('loadMessages');
    const { afterSequence, limit } = checkLoadMessagesOptions(options);
    const rows = this.#session(sessionId).messages.slice(afterSequence);
    return (limit === null ? rows : rows.slice(0, limit)).map(decodeStoredMessage);
  }

  async listFileChanges(sessionId: string): Promise<FileChangeRecord[]> {
    this.#open('listFileChanges');
    const session = this.#session(sessionId);
    return [...session.changes.values()]
      .sort((a, b) => a.sequence - b.sequence || a.artifactIndex - b.artifactIndex)
      .map((change) => decodeFileChange(this.#row(session, change.sequence), change.artifactIndex));
  }

  async setUndone(sessionId: string, update: UndoneUpdate): Promise<FileChangeRecord[]> {
    this.#open('setUndone');
    const { changeIds, undone } = checkUndoneUpdate(update);
    const session = this.#session(sessionId);
    // Compare every change first, so that a conflict changes nothing (all or none).
    const entries = changeIds.map((changeId) => {
      const entry = session.changes.get(changeId);
      if (entry === undefined) throw new ChangeNotFoundError(sessionId, changeId);
      if (entry.undone === undone) throw new UndoneConflictError(sessionId, changeId, entry.undone);
      return entry;
    });
    const timestamp = storeTimestamp(this.#now);
    for (const entry of entries) {
      const row = this.#row(session, entry.sequence);
      session.messages[entry.sequence - 1] = { ...row, body: rewriteArtifactUndone(row, entry.artifactIndex, undone) };
      entry.undone = undone;
    }
    session.record = Object.freeze({ ...session.record, updatedAt: laterTimestamp(session.record.updatedAt, timestamp) });
    return entries.map((entry) => decodeFileChange(this.#row(session, entry.sequence), entry.artifactIndex));
  }

  async createAgentRun(input: NewAgentRun): Promise<AgentRunCreated> {
    this.#open('createAgentRun');
    const { run, child } = AgentRunRules.prepare(input, storeTimestamp(this.#now));
    this.#session(run.parentSessionId);
    if (run.idempotencyKey !== null) {
      for (const existing of this.#runs.values()) {
        if (existing.parentSessionId === run.parentSessionId && existing.idempotencyKey === run.idempotencyKey) return { run: existing, created: false };
      }
    }
    if (this.#sessions.has(child.id)) throw new SessionExistsError(child.id);
    this.#sessions.set(child.id, { record: child, messages: [], messageSequences: new Map(), toolCalls: new Map(), changes: new Map() });
    this.#runs.set(run.id, run);
    return { run, created: true };
  }

  async getAgentRun(agentId: string): Promise<AgentRunRecord | undefined> {
    this.#open('getAgentRun');
    return this.#runs.get(checkRecordId(agentId, 'agent id'));
  }

  async listAgentRuns(parentSessionId: string): Promise<AgentRunRecord[]> {
    this.#open('listAgentRuns');
    this.#session(parentSessionId);
    return [...this.#runs.values()].filter((run) => run.parentSessionId === parentSessionId);
  }

  async claimAgentRun(agentId: string, lease: AgentRunLease): Promise<AgentRunRecord | undefined> {
    this.#open('claimAgentRun');
    AgentRunRules.checkLease(lease);
    return this.#replaceRun(agentId, (run) => AgentRunRules.claim(run, lease, this.#now()));
  }

  async claimAgentRuns(options: ClaimAgentRunsOptions): Promise<AgentRunRecord[]> {
    this.#open('claimAgentRuns');
    const { owner, leaseMs, limit } = AgentRunRules.checkClaimMany(options);
    const now = this.#now();
    const claimed: AgentRunRecord[] = [];
    for (const run of this.#runs.values()) {
      if (claimed.length >= limit) break;
      if (run.leaseOwner !== null && run.leaseOwner !== owner && run.leaseExpiresAt !== null && run.leaseExpiresAt > now.toISOString()) continue;
      if (run.leaseOwner === owner && run.state === 'running') continue;
      const next = AgentRunRules.claim(run, { owner, leaseMs }, now);
      if (next !== undefined) {
        this.#runs.set(run.id, next);
        claimed.push(next);
      }
    }
    return claimed;
  }

  async releaseAgentRun(agentId: string, owner: string): Promise<boolean> {
    this.#open('releaseAgentRun');
    checkRecordId(owner, 'lease owner');
    return this.#replaceRun(agentId, (run) => AgentRunRules.release(run, owner, this.#now())) !== undefined;
  }

  async finishAgentRun(agentId: string, finish: AgentRunFinish): Promise<AgentRunRecord | undefined> {
    this.#open('finishAgentRun');
    let entry: PreparedMailboxEntry | undefined;
    const run = this.#replaceRun(agentId, (current) => {
      const ended = AgentRunRules.finish(current, finish, this.#now());
      entry = ended?.entry;
      return ended?.run;
    });
    if (run !== undefined && entry !== undefined) {
      const mailbox = this.#mailbox(run.parentSessionId);
      mailbox.mailbox.push(Object.freeze({ ...entry, sequence: mailbox.mailbox.length + 1 }));
    }
    return run;
  }

  async reopenAgentRun(agentId: string, prompt: string): Promise<AgentRunRecord | undefined> {
    this.#open('reopenAgentRun');
    return this.#replaceRun(agentId, (run) => AgentRunRules.reopen(run, prompt, this.#now()));
  }

  async listMailbox(parentSessionId: string, options: ListMailboxOptions = {}): Promise<MailboxEntry[]> {
    this.#open('listMailbox');
    this.#session(parentSessionId);
    const entries = this.#mailboxes.get(parentSessionId)?.mailbox ?? [];
    return entries.filter((entry) => options.undelivered !== true || !entry.delivered);
  }

  async markMailboxDelivered(parentSessionId: string, sequences: readonly number[]): Promise<number[]> {
    this.#open('markMailboxDelivered');
    const wanted = AgentRunRules.checkSequences(sequences);
    this.#session(parentSessionId);
    const mailbox = this.#mailboxes.get(parentSessionId)?.mailbox ?? [];
    const marked: number[] = [];
    for (const sequence of wanted) {
      const entry = mailbox[sequence - 1];
      if (entry === undefined || entry.delivered) continue;
      mailbox[sequence - 1] = Object.freeze({ ...entry, delivered: true });
      marked.push(sequence);
    }
    return marked.sort((a, b) => a - b);
  }

  async getPlan(sessionId: string): Promise<SessionPlan | undefined> {
    this.#open('getPlan');
    this.#session(sessionId);
    return this.#plans.get(sessionId);
  }

  async setPlan(sessionId: string, plan: NewSessionPlan): Promise<SessionPlan> {
    this.#open('setPlan');
    this.#session(sessionId);
    const prepared = PlanRules.prepare(sessionId, plan, storeTimestamp(this.#now));
    this.#plans.set(sessionId, prepared);
    return prepared;
  }

  async saveBackgroundTask(sessionId: string, task: NewBackgroundTaskRecord): Promise<BackgroundTaskRecord> {
    this.#open('saveBackgroundTask');
    this.#session(sessionId);
    const prepared = BackgroundTaskRules.prepare(sessionId, task, storeTimestamp(this.#now));
    const tasks = this.#backgroundTasks.get(sessionId) ?? new Map<string, BackgroundTaskRecord>();
    this.#backgroundTasks.set(sessionId, tasks);
    tasks.set(prepared.taskId, prepared);
    for (const old of byStart([...tasks.values()]).slice(0, Math.max(0, tasks.size - MAX_STORED_BACKGROUND_TASKS))) tasks.delete(old.taskId);
    return prepared;
  }

  async listBackgroundTasks(sessionId: string): Promise<BackgroundTaskRecord[]> {
    this.#open('listBackgroundTasks');
    this.#session(sessionId);
    return byStart([...(this.#backgroundTasks.get(sessionId)?.values() ?? [])]);
  }

  /** Applies `change` to the run; writes and returns the new record, or `undefined` when `change` refuses. */
  #replaceRun(agentId: string, change: (run: AgentRunRecord) => AgentRunRecord | undefined): AgentRunRecord | undefined {
    const run = this.#runs.get(checkRecordId(agentId, 'agent id'));
    if (run === undefined) throw new AgentRunNotFoundError(agentId);
    const next = change(run);
    if (next !== undefined) this.#runs.set(agentId, next);
    return next;
  }

  #mailbox(parentSessionId: string): MemoryParent {
    let mailbox = this.#mailboxes.get(parentSessionId);
    if (mailbox === undefined) {
      mailbox = { mailbox: [] };
      this.#mailboxes.set(parentSessionId, mailbox);
    }
    return mailbox;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #session(sessionId: string): MemorySession {
    checkRecordId(sessionId, 'session id');
    const session = this.#sessions.get(sessionId);
    if (session === undefined) throw new SessionNotFoundError(sessionId);
    return session;
  }

  #row(session: MemorySession, sequence: number): MessageRow {
    const row = session.messages[sequence - 1];
    if (row === undefined) throw new Error(`in-memory session store lost message ${sequence}`);
    return row;
  }

  #open(operation: string): void {
    if (this.#closed) throw new StoreClosedError(operation);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Oldest start first; the task id breaks ties, as the SQL stores order them. */
function byStart(tasks: BackgroundTaskRecord[]): BackgroundTaskRecord[] {
  return tasks.sort((a, b) => (a.startedAt === b.startedAt ? (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0) : a.startedAt < b.startedAt ? -1 : 1));
}
