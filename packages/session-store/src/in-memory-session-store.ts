import { checkRecordId } from './check-record-id.js';
import { checkListSessionsOptions, checkLoadMessagesOptions, checkUndoneUpdate } from './check-store-options.js';
import { ChangeNotFoundError } from './change-not-found-error.js';
import { decodeFileChange, decodeStoredMessage, rewriteArtifactUndone } from './decode-stored-message.js';
import type { FileChangeRecord, UndoneUpdate } from './file-change-record.js';
import type { MessageRow } from './message-row.js';
import { MessageLogRules } from './message-log-rules.js';
import type { LoadMessagesOptions, NewMessage } from './new-message.js';
import { applySessionChanges, checkSessionChanges, prepareNewSession } from './prepare-session.js';
import { prepareMessage, type PreparedMessage } from './prepared-message.js';
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
    return this.#sessions.delete(sessionId);
  }

  async appendMessage(sessionId: string, message: NewMessage): Promise<StoredMessage> {
    this.#open('appendMessage');
    const prepared = prepareMessage(message);
    const session = this.#session(sessionId);
    const existing = this.#sameMessage(session, sessionId, prepared);
    if (existing !== undefined) return existing;
    this.#checkRules(session, sessionId, prepared);

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

  async close(): Promise<void> {
    this.#closed = true;
  }

  /** The stored message when `prepared` repeats it (same id, same content): an idempotent retry. */
  #sameMessage(session: MemorySession, sessionId: string, prepared: PreparedMessage): StoredMessage | undefined {
    const sequence = session.messageSequences.get(prepared.id);
    if (sequence === undefined) return undefined;
    const row = this.#row(session, sequence);
    if (row.role !== prepared.role || row.body !== prepared.body) throw MessageLogRules.messageIdTaken(sessionId, prepared.id, sequence);
    return decodeStoredMessage(row);
  }

  #checkRules(session: MemorySession, sessionId: string, prepared: PreparedMessage): void {
    for (const call of prepared.toolCalls) {
      const taken = session.toolCalls.get(call.id);
      if (taken !== undefined) throw MessageLogRules.toolCallIdTaken(sessionId, call.id, taken.callSequence);
    }
    const answered = prepared.answeredCall;
    if (answered !== null) {
      const call = session.toolCalls.get(answered.id);
      if (call === undefined) throw MessageLogRules.unknownToolCall(sessionId, answered.id);
      if (call.toolId !== answered.toolId) throw MessageLogRules.toolIdMismatch(sessionId, answered.id, call.toolId, answered.toolId);
      if (call.resultSequence !== null) throw MessageLogRules.toolResultExists(sessionId, answered.id, call.resultSequence);
    }
    for (const change of prepared.fileChanges) {
      const taken = session.changes.get(change.changeId);
      if (taken !== undefined) throw MessageLogRules.changeIdTaken(sessionId, change.changeId, taken.sequence);
    }
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
