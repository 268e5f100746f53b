import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import {
  ChangeNotFoundError,
  MessageLogRules,
  SessionExistsError,
  SessionNotFoundError,
  StoreClosedError,
  UndoneConflictError,
  applySessionChanges,
  checkListSessionsOptions,
  checkLoadMessagesOptions,
  checkRecordId,
  checkSessionChanges,
  checkUndoneUpdate,
  decodeFileChange,
  decodeSessionRow,
  decodeStoredMessage,
  laterTimestamp,
  prepareMessage,
  prepareNewSession,
  rewriteArtifactUndone,
  storeTimestamp,
  systemClock,
  type FileChangeRecord,
  type ListSessionsOptions,
  type LoadMessagesOptions,
  type MessageRole,
  type MessageRow,
  type NewMessage,
  type NewSession,
  type PreparedMessage,
  type SessionChanges,
  type SessionRecord,
  type SessionRow,
  type SessionStore,
  type StoreClock,
  type StoredMessage,
  type UndoneUpdate,
} from '@openwork/session-store';
import { openSqliteDatabase } from './open-sqlite-database.js';
import { SQLITE_MIGRATIONS, type SqliteMigration } from './sqlite-migrations.js';
import { DEFAULT_BUSY_TIMEOUT_MS, SQLITE_SESSION_FILE_NAME, type SqliteSessionStoreOptions } from './sqlite-session-store-options.js';
import { toSqliteStoreError } from './sqlite-store-error.js';

interface MessageColumns {
  readonly session_id: string;
  readonly sequence: number;
  readonly id: string;
  readonly role: string;
  readonly body: string;
  readonly created_at: string;
}

interface ChangeColumns extends MessageColumns {
  readonly artifact_index: number;
  readonly undone: number;
}

let construct: (path: string, database: BetterSqlite3.Database, now: StoreClock, busyTimeoutMs: number) => SqliteSessionStore;

/**
 * Opens a store whose schema ends at the last of `migrations`. Not public: tests build databases
 * of an older schema with the first migrations only.
 */
export async function openSqliteSessionStore(
  options: SqliteSessionStoreOptions,
  migrations: readonly SqliteMigration[],
): Promise<SqliteSessionStore> {
  const path = resolve(options.path ?? join(options.openworkHome ?? join(homedir(), '.openwork'), SQLITE_SESSION_FILE_NAME));
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new TypeError(`busyTimeoutMs must be a whole number of milliseconds >= 0, got ${String(busyTimeoutMs)}`);
  }
  const database = await openSqliteDatabase(path, migrations, busyTimeoutMs);
  return construct(path, database, options.now ?? systemClock, busyTimeoutMs);
}

const SESSION_COLUMNS = 'id, workspace_roots, mode, agent_role, created_at, updated_at, message_count';
const MESSAGE_COLUMNS = 'session_id, sequence, id, role, body, created_at';

/**
 * The embedded default `SessionStore`: one SQLite file under the OpenWork home, in WAL mode, so
 * that readers never wait for a writer and several processes can share it. Every write is one
 * `BEGIN IMMEDIATE` transaction (a message and its artifacts together); the schema is migrated on
 * open. better-sqlite3 is synchronous: a call runs on the calling thread, and a write waits up to
 * `busyTimeoutMs` for another process's write.
 */
export class SqliteSessionStore implements SessionStore {
  /** The database file. */
  readonly path: string;
  readonly #database: BetterSqlite3.Database;
  readonly #now: StoreClock;
  readonly #busyTimeoutMs: number;
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  #closed = false;

  private constructor(path: string, database: BetterSqlite3.Database, now: StoreClock, busyTimeoutMs: number) {
    this.path = path;
    this.#database = database;
    this.#now = now;
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  /**
   * Opens the store, creating the file (and the OpenWork home) when missing and migrating an
   * older schema. A corrupt or unreadable file, a newer schema, another program's database or a
   * lock held too long by another process is a typed error naming the file.
   */
  static async open(options: SqliteSessionStoreOptions = {}): Promise<SqliteSessionStore> {
    return openSqliteSessionStore(options, SQLITE_MIGRATIONS);
  }

  static {
    construct = (path, database, now, busyTimeoutMs) => new SqliteSessionStore(path, database, now, busyTimeoutMs);
  }

  /** The schema version of the open database (`PRAGMA user_version`). */
  get schemaVersion(): number {
    return this.#run('schemaVersion', () => this.#database.pragma('user_version', { simple: true }) as number);
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    return this.#write('createSession', () => {
      const record = prepareNewSession(session, storeTimestamp(this.#now));
      if (this.#sessionRow(record.id) !== undefined) throw new SessionExistsError(record.id);
      this.#statement(
        `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0)`,
      ).run(record.id, JSON.stringify(record.workspaceRoots), record.mode, record.agentRole, record.createdAt, record.updatedAt);
      return record;
    });
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    return this.#run('getSession', () => {
      const row = this.#sessionRow(checkRecordId(sessionId, 'session id'));
      return row === undefined ? undefined : decodeSessionRow(row);
    });
  }

  async listSessions(options?: ListSessionsOptions): Promise<SessionRecord[]> {
    return this.#run('listSessions', () => {
      const { limit } = checkListSessionsOptions(options);
      const rows = this.#statement(`SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY updated_at DESC, id LIMIT ?`).all(limit ?? -1) as SessionRow[];
      return rows.map(decodeSessionRow);
    });
  }

  async updateSession(sessionId: string, changes: SessionChanges): Promise<SessionRecord> {
    return this.#write('updateSession', () => {
      const checked = checkSessionChanges(changes);
      const record = applySessionChanges(decodeSessionRow(this.#requireSession(sessionId)), checked, storeTimestamp(this.#now));
      this.#statement('UPDATE sessions SET workspace_roots = ?, mode = ?, agent_role = ?, updated_at = ? WHERE id = ?').run(
        JSON.stringify(record.workspaceRoots),
        record.mode,
        record.agentRole,
        record.updatedAt,
        record.id,
      );
      return record;
    });
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    return this.#write('deleteSession', () => {
      const result = this.#statement('DELETE FROM sessions WHERE id = ?').run(checkRecordId(sessionId, 'session id'));
      return result.changes > 0;
    });
  }

  async appendMessage(sessionId: string, message: NewMessage): Promise<StoredMessage> {
    const prepared = prepareMessage(message);
    return this.#write('appendMessage', () => {
      const session = this.#requireSession(sessionId);
      const existing = this.#sameMessage(sessionId, prepared);
      if (existing !== undefined) return existing;
      this.#checkRules(sessionId, prepared);
      return this.#insertMessage(session, prepared);
    });
  }

  async loadMessages(sessionId: string, options?: LoadMessagesOptions): Promise<StoredMessage[]> {
    return this.#run('loadMessages', () => {
      const { afterSequence, limit } = checkLoadMessagesOptions(options);
      // One statement is one snapshot; the existence check shares it through a read transaction.
      return this.#database.transaction(() => {
        this.#requireSession(sessionId);
        const rows = this.#statement(
          `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`,
        ).all(sessionId, afterSequence, limit ?? -1) as MessageColumns[];
        return rows.map((row) => decodeStoredMessage(toMessageRow(row)));
      })();
    });
  }

  async listFileChanges(sessionId: string): Promise<FileChangeRecord[]> {
    return this.#run('listFileChanges', () =>
      this.#database.transaction(() => {
        this.#requireSession(sessionId);
        const rows = this.#statement(
          `SELECT m.session_id, m.sequence, m.id, m.role, m.body, m.created_at, c.artifact_index, c.undone
             FROM file_changes c JOIN messages m ON m.session_id = c.session_id AND m.sequence = c.message_sequence
            WHERE c.session_id = ? ORDER BY c.message_sequence, c.artifact_index`,
        ).all(sessionId) as ChangeColumns[];
        return rows.map((row) => decodeFileChange(toMessageRow(row), row.artifact_index));
      })(),
    );
  }

  async setUndone(sessionId: string, update: UndoneUpdate): Promise<FileChangeRecord[]> {
    const { changeIds, undone } = checkUndoneUpdate(update);
    return this.#write('setUndone', () => {
      const session = this.#requireSession(sessionId);
      // Compare every change under the write lock first: a conflict changes nothing (§8.4).
      const rows = changeIds.map((changeId) => {
        const row = this.#statement(
          `SELECT m.session_id, m.sequence, m.id, m.role, m.body, m.created_at, c.artifact_index, c.undone
             FROM file_changes c JOIN messages m ON m.session_id = c.session_id AND m.sequence = c.message_sequence
            WHERE c.session_id = ? AND c.change_id = ?`,
        ).get(sessionId, changeId) as ChangeColumns | undefined;
        if (row === undefined) throw new ChangeNotFoundError(sessionId, changeId);
        if ((row.undone === 1) === undone) throw new UndoneConflictError(sessionId, changeId, undone);
        return { changeId, row };
      });
      const updated = rows.map(({ changeId, row }) => {
        // Re-read the body: two changes of one batch may live in the same message.
        const current = this.#messageRow(sessionId, row.sequence);
        const body = rewriteArtifactUndone(current, row.artifact_index, undone);
        this.#statement('UPDATE messages SET body = ? WHERE session_id = ? AND sequence = ?').run(body, sessionId, row.sequence);
        this.#statement('UPDATE file_changes SET undone = ? WHERE session_id = ? AND change_id = ?').run(undone ? 1 : 0, sessionId, changeId);
        return { sequence: row.sequence, artifactIndex: row.artifact_index };
      });
      this.#touch(session, storeTimestamp(this.#now));
      return updated.map(({ sequence, artifactIndex }) => decodeFileChange(this.#messageRow(sessionId, sequence), artifactIndex));
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#database.close();
  }

  #insertMessage(session: SessionRow, prepared: PreparedMessage): StoredMessage {
    const timestamp = storeTimestamp(this.#now);
    const sequence = session.message_count + 1;
    const row: MessageRow = { sessionId: session.id, id: prepared.id, sequence, role: prepared.role, body: prepared.body, createdAt: timestamp };
    this.#statement(`INSERT INTO messages (${MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`).run(
      row.sessionId,
      row.sequence,
      row.id,
      row.role,
      row.body,
      row.createdAt,
    );
    for (const call of prepared.toolCalls) {
      this.#statement('INSERT INTO tool_calls (session_id, tool_call_id, tool_id, call_sequence) VALUES (?, ?, ?, ?)').run(
        session.id,
        call.id,
        call.toolId,
        sequence,
      );
    }
    if (prepared.answeredCall !== null) {
      this.#statement('UPDATE tool_calls SET result_sequence = ? WHERE session_id = ? AND tool_call_id = ?').run(sequence, session.id, prepared.answeredCall.id);
    }
    for (const change of prepared.fileChanges) {
      this.#statement(
        'INSERT INTO file_changes (session_id, change_id, message_sequence, artifact_index, path, undone) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(session.id, change.changeId, sequence, change.artifactIndex, change.path, change.undone ? 1 : 0);
    }
    this.#statement('UPDATE sessions SET message_count = ?, updated_at = ? WHERE id = ?').run(
      sequence,
      laterTimestamp(session.updated_at, timestamp),
      session.id,
    );
    return decodeStoredMessage(row);
  }

  /** The stored message when `prepared` repeats it (same id, same content): an idempotent retry. */
  #sameMessage(sessionId: string, prepared: PreparedMessage): StoredMessage | undefined {
    const row = this.#statement(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id = ?`).get(sessionId, prepared.id) as
      | MessageColumns
      | undefined;
    if (row === undefined) return undefined;
    if (row.role !== prepared.role || row.body !== prepared.body) throw MessageLogRules.messageIdTaken(sessionId, prepared.id, row.sequence);
    return decodeStoredMessage(toMessageRow(row));
  }

  #checkRules(sessionId: string, prepared: PreparedMessage): void {
    const findCall = this.#statement('SELECT tool_id, call_sequence, result_sequence FROM tool_calls WHERE session_id = ? AND tool_call_id = ?');
    for (const call of prepared.toolCalls) {
      const taken = findCall.get(sessionId, call.id) as { call_sequence: number } | undefined;
      if (taken !== undefined) throw MessageLogRules.toolCallIdTaken(sessionId, call.id, taken.call_sequence);
    }
    const answered = prepared.answeredCall;
    if (answered !== null) {
      const call = findCall.get(sessionId, answered.id) as { tool_id: string; result_sequence: number | null } | undefined;
      if (call === undefined) throw MessageLogRules.unknownToolCall(sessionId, answered.id);
      if (call.tool_id !== answered.toolId) throw MessageLogRules.toolIdMismatch(sessionId, answered.id, call.tool_id, answered.toolId);
      if (call.result_sequence !== null) throw MessageLogRules.toolResultExists(sessionId, answered.id, call.result_sequence);
    }
    const findChange = this.#statement('SELECT message_sequence FROM file_changes WHERE session_id = ? AND change_id = ?');
    for (const change of prepared.fileChanges) {
      const taken = findChange.get(sessionId, change.changeId) as { message_sequence: number } | undefined;
      if (taken !== undefined) throw MessageLogRules.changeIdTaken(sessionId, change.changeId, taken.message_sequence);
    }
  }

  #touch(session: SessionRow, timestamp: string): void {
    this.#statement('UPDATE sessions SET updated_at = ? WHERE id = ?').run(laterTimestamp(session.updated_at, timestamp), session.id);
  }

  #sessionRow(sessionId: string): SessionRow | undefined {
    return this.#statement(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`).get(sessionId) as SessionRow | undefined;
  }

  #requireSession(sessionId: string): SessionRow {
    const row = this.#sessionRow(checkRecordId(sessionId, 'session id'));
    if (row === undefined) throw new SessionNotFoundError(sessionId);
    return row;
  }

  #messageRow(sessionId: string, sequence: number): MessageRow {
    const row = this.#statement(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND sequence = ?`).get(sessionId, sequence) as
      | MessageColumns
      | undefined;
    if (row === undefined) throw new Error(`message ${sequence} of session ${sessionId} vanished inside a transaction`);
    return toMessageRow(row);
  }

  #statement(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#database.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `action` (reads only), mapping driver failures to typed errors. */
  #run<T>(operation: string, action: () => T): T {
    if (this.#closed) throw new StoreClosedError(operation);
    try {
      return action();
    } catch (error) {
      throw toSqliteStoreError(error, this.path, this.#busyTimeoutMs);
    }
  }

  /** Runs `action` in one `BEGIN IMMEDIATE` transaction: all of it is written, or none. */
  #write<T>(operation: string, action: () => T): T {
    return this.#run(operation, () => this.#database.transaction(action).immediate());
  }
}

function toMessageRow(row: MessageColumns): MessageRow {
  return { sessionId: row.session_id, id: row.id, sequence: row.sequence, role: row.role as MessageRole, body: row.body, createdAt: row.created_at };
}
