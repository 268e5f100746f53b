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
  type MessageLogLookup,
  type MessageRole,
  type MessageRow,
  type NewMessage,
  type NewSession,
  type PreparedMessage,
  AgentRunNotFoundError,
  AgentRunRules,
  PlanRules,
  BackgroundTaskRules,
  MAX_STORED_BACKGROUND_TASKS,
  type BackgroundTaskRecord,
  type NewBackgroundTaskRecord,
  type AgentRunCreated,
  type AgentRunFinish,
  type AgentRunLease,
  type AgentRunRecord,
  type ClaimAgentRunsOptions,
  type ListMailboxOptions,
  type MailboxEntry,
  type NewAgentRun,
  type NewSessionPlan,
  type SessionPlan,
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
      const same = this.#statement(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id = ?`).get(sessionId, prepared.id) as
        | MessageColumns
        | undefined;
      const findCall = this.#statement('SELECT tool_id, call_sequence, result_sequence FROM tool_calls WHERE session_id = ? AND tool_call_id = ?');
      const findChange = this.#statement('SELECT message_sequence FROM file_changes WHERE session_id = ? AND change_id = ?');
      const lookup: MessageLogLookup = {
        call: (id) => {
          const row = findCall.get(sessionId, id) as { tool_id: string; call_sequence: number; result_sequence: number | null } | undefined;
          return row === undefined ? undefined : { toolId: row.tool_id, callSequence: row.call_sequence, resultSequence: row.result_sequence };
        },
        change: (id) => (findChange.get(sessionId, id) as { message_sequence: number } | undefined)?.message_sequence,
      };
      if (MessageLogRules.checkAppend(sessionId, prepared, same, lookup) && same !== undefined) return decodeStoredMessage(toMessageRow(same));
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

  async createAgentRun(input: NewAgentRun): Promise<AgentRunCreated> {
    return this.#write('createAgentRun', () => {
      const { run, child } = AgentRunRules.prepare(input, storeTimestamp(this.#now));
      this.#requireSession(run.parentSessionId);
      if (run.idempotencyKey !== null) {
        const existing = this.#statement('SELECT body FROM agent_runs WHERE parent_session_id = ? AND idempotency_key = ?').get(run.parentSessionId, run.idempotencyKey) as
          | { body: string }
          | undefined;
        if (existing !== undefined) return { run: AgentRunRules.decode(existing.body), created: false };
      }
      if (this.#sessionRow(child.id) !== undefined) throw new SessionExistsError(child.id);
      this.#statement(`INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0)`).run(
        child.id,
        JSON.stringify(child.workspaceRoots),
        child.mode,
        child.agentRole,
        child.createdAt,
        child.updatedAt,
      );
      this.#statement(
        'INSERT INTO agent_runs (id, parent_session_id, idempotency_key, state, lease_owner, lease_expires_at, created_at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(run.id, run.parentSessionId, run.idempotencyKey, run.state, null, null, run.createdAt, AgentRunRules.encode(run));
      return { run, created: true };
    });
  }

  async getAgentRun(agentId: string): Promise<AgentRunRecord | undefined> {
    return this.#run('getAgentRun', () => this.#agentRun(checkRecordId(agentId, 'agent id')));
  }

  async listAgentRuns(parentSessionId: string): Promise<AgentRunRecord[]> {
    return this.#run('listAgentRuns', () =>
      this.#database.transaction(() => {
        this.#requireSession(parentSessionId);
        const rows = this.#statement('SELECT body FROM agent_runs WHERE parent_session_id = ? ORDER BY created_at, rowid').all(parentSessionId) as { body: string }[];
        return rows.map((row) => AgentRunRules.decode(row.body));
      })(),
    );
  }

  async claimAgentRun(agentId: string, lease: AgentRunLease): Promise<AgentRunRecord | undefined> {
    AgentRunRules.checkLease(lease);
    return this.#write('claimAgentRun', () => this.#replaceRun(agentId, (run) => AgentRunRules.claim(run, lease, this.#now())));
  }

  async claimAgentRuns(options: ClaimAgentRunsOptions): Promise<AgentRunRecord[]> {
    const { owner, leaseMs, limit } = AgentRunRules.checkClaimMany(options);
    // BEGIN IMMEDIATE holds the write lock: of two processes claiming at once, the second sees the first's leases.
    return this.#write('claimAgentRuns', () => {
      const now = this.#now();
      const rows = this.#statement(
        `SELECT body FROM agent_runs WHERE state IN ('queued', 'running')
            AND (lease_owner IS NULL OR (lease_owner <> ? AND lease_expires_at <= ?))
          ORDER BY created_at, rowid LIMIT ?`,
      ).all(owner, now.toISOString(), limit) as { body: string }[];
      const claimed: AgentRunRecord[] = [];
      for (const row of rows) {
        const next = AgentRunRules.claim(AgentRunRules.decode(row.body), { owner, leaseMs }, now);
        if (next === undefined) continue;
        this.#writeRun(next);
        claimed.push(next);
      }
      return claimed;
    });
  }

  async releaseAgentRun(agentId: string, owner: string): Promise<boolean> {
    checkRecordId(owner, 'lease owner');
    return this.#write('releaseAgentRun', () => this.#replaceRun(agentId, (run) => AgentRunRules.release(run, owner, this.#now())) !== undefined);
  }

  async finishAgentRun(agentId: string, finish: AgentRunFinish): Promise<AgentRunRecord | undefined> {
    return this.#write('finishAgentRun', () => {
      const current = this.#agentRun(checkRecordId(agentId, 'agent id'));
      if (current === undefined) throw new AgentRunNotFoundError(agentId);
      const ended = AgentRunRules.finish(current, finish, this.#now());
      if (ended === undefined) return undefined;
      this.#writeRun(ended.run);
      const { entry } = ended;
      const last = this.#statement('SELECT COALESCE(MAX(sequence), 0) AS last FROM agent_mailbox WHERE parent_session_id = ?').get(entry.parentSessionId) as { last: number };
      this.#statement('INSERT INTO agent_mailbox (parent_session_id, sequence, agent_id, round, body, delivered, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)').run(
        entry.parentSessionId,
        last.last + 1,
        entry.agentId,
        entry.round,
        AgentRunRules.encodeEntry(entry),
        entry.createdAt,
      );
      return ended.run;
    });
  }

  async reopenAgentRun(agentId: string, prompt: string): Promise<AgentRunRecord | undefined> {
    return this.#write('reopenAgentRun', () => this.#replaceRun(agentId, (run) => AgentRunRules.reopen(run, prompt, this.#now())));
  }

  async listMailbox(parentSessionId: string, options: ListMailboxOptions = {}): Promise<MailboxEntry[]> {
    return this.#run('listMailbox', () =>
      this.#database.transaction(() => {
        this.#requireSession(parentSessionId);
        const rows = this.#statement(
          `SELECT parent_session_id, sequence, agent_id, round, body, delivered, created_at FROM agent_mailbox
            WHERE parent_session_id = ? AND (? = 0 OR delivered = 0) ORDER BY sequence`,
        ).all(parentSessionId, options.undelivered === true ? 1 : 0) as MailboxColumns[];
        return rows.map(toMailboxEntry);
      })(),
    );
  }

  async markMailboxDelivered(parentSessionId: string, sequences: readonly number[]): Promise<number[]> {
    const wanted = AgentRunRules.checkSequences(sequences);
    return this.#write('markMailboxDelivered', () => {
      this.#requireSession(parentSessionId);
      const mark = this.#statement('UPDATE agent_mailbox SET delivered = 1 WHERE parent_session_id = ? AND sequence = ? AND delivered = 0');
      return wanted.filter((sequence) => mark.run(parentSessionId, sequence).changes > 0).sort((a, b) => a - b);
    });
  }

  async getPlan(sessionId: string): Promise<SessionPlan | undefined> {
    return this.#run('getPlan', () =>
      this.#database.transaction(() => {
        this.#requireSession(sessionId);
        const row = this.#statement('SELECT body, updated_at FROM session_plans WHERE session_id = ?').get(sessionId) as { body: string; updated_at: string } | undefined;
        return row === undefined ? undefined : PlanRules.decode(sessionId, row.body, row.updated_at);
      })(),
    );
  }

  async setPlan(sessionId: string, plan: NewSessionPlan): Promise<SessionPlan> {
    return this.#write('setPlan', () => {
      this.#requireSession(sessionId);
      const prepared = PlanRules.prepare(sessionId, plan, storeTimestamp(this.#now));
      this.#statement(
        'INSERT INTO session_plans (session_id, body, updated_at) VALUES (?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at',
      ).run(sessionId, PlanRules.encode(prepared), prepared.updatedAt);
      return prepared;
    });
  }

  async saveBackgroundTask(sessionId: string, task: NewBackgroundTaskRecord): Promise<BackgroundTaskRecord> {
    return this.#write('saveBackgroundTask', () => {
      this.#requireSession(sessionId);
      const prepared = BackgroundTaskRules.prepare(sessionId, task, storeTimestamp(this.#now));
      this.#statement(
        `INSERT INTO background_tasks (session_id, task_id, started_at, body, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (session_id, task_id) DO UPDATE SET started_at = excluded.started_at, body = excluded.body, updated_at = excluded.updated_at`,
      ).run(sessionId, prepared.taskId, prepared.startedAt, BackgroundTaskRules.encode(prepared), prepared.updatedAt);
      // A session keeps the most recently started ones (bounded like its live tasks).
      this.#statement(
        `DELETE FROM background_tasks WHERE session_id = ? AND task_id NOT IN
         (SELECT task_id FROM background_tasks WHERE session_id = ? ORDER BY started_at DESC, task_id DESC LIMIT ?)`,
      ).run(sessionId, sessionId, MAX_STORED_BACKGROUND_TASKS);
      return prepared;
    });
  }

  async listBackgroundTasks(sessionId: string): Promise<BackgroundTaskRecord[]> {
    return this.#run('listBackgroundTasks', () =>
      this.#database.transaction(() => {
        this.#requireSession(sessionId);
        const rows = this.#statement('SELECT task_id, started_at, body, updated_at FROM background_tasks WHERE session_id = ? ORDER BY started_at, task_id').all(sessionId) as Array<{
          task_id: string;
          started_at: string;
          body: string;
          updated_at: string;
        }>;
        return rows.map((row) => BackgroundTaskRules.decode(sessionId, row.task_id, row.body, row.started_at, row.updated_at));
      })(),
    );
  }

  #agentRun(agentId: string): AgentRunRecord | undefined {
    const row = this.#statement('SELECT body FROM agent_runs WHERE id = ?').get(agentId) as { body: string } | undefined;
    return row === undefined ? undefined : AgentRunRules.decode(row.body);
  }

  /** Inside a write: applies `change` to the run and writes the new record, or returns `undefined` when `change` refuses. */
  #replaceRun(agentId: string, change: (run: AgentRunRecord) => AgentRunRecord | undefined): AgentRunRecord | undefined {
    const run = this.#agentRun(checkRecordId(agentId, 'agent id'));
    if (run === undefined) throw new AgentRunNotFoundError(agentId);
    const next = change(run);
    if (next !== undefined) this.#writeRun(next);
    return next;
  }

  #writeRun(run: AgentRunRecord): void {
    this.#statement('UPDATE agent_runs SET state = ?, lease_owner = ?, lease_expires_at = ?, body = ? WHERE id = ?').run(
      run.state,
      run.leaseOwner,
      run.leaseExpiresAt,
      AgentRunRules.encode(run),
      run.id,
    );
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

interface MailboxColumns {
  readonly parent_session_id: string;
  readonly sequence: number;
  readonly agent_id: string;
  readonly round: number;
  readonly body: string;
  readonly delivered: number;
  readonly created_at: string;
}

function toMailboxEntry(row: MailboxColumns): MailboxEntry {
  return AgentRunRules.decodeEntry({
    parentSessionId: row.parent_session_id,
    sequence: row.sequence,
    agentId: row.agent_id,
    round: row.round,
    body: row.body,
    delivered: row.delivered === 1,
    createdAt: row.created_at,
  });
}

function toMessageRow(row: MessageColumns): MessageRow {
  return { sessionId: row.session_id, id: row.id, sequence: row.sequence, role: row.role as MessageRole, body: row.body, createdAt: row.created_at };
}
