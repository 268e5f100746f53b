import type { Pool, PoolClient } from 'pg';
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
import { describePostgresServer } from './describe-postgres-server.js';
import { migratePostgresSchema, quoteIdentifier } from './migrate-postgres-schema.js';
import { POSTGRES_MIGRATIONS, type PostgresMigration } from './postgres-migrations.js';
import { DEFAULT_POSTGRES_SCHEMA, type PostgresSessionStoreOptions } from './postgres-session-store-options.js';
import { isConnectionLoss, toPostgresStoreError } from './postgres-store-error.js';

interface MessageColumns {
  readonly session_id: string;
  readonly sequence: number;
  readonly id: string;
  readonly role: string;
  readonly body: string;
  readonly created_at: string;
}

interface ChangeColumns extends MessageColumns {
  readonly change_id: string;
  readonly artifact_index: number;
  readonly undone: boolean;
}

/** An idempotent retry is decided before any id is looked up. */
const NO_LOOKUP = { call: () => undefined, change: () => undefined };

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const SESSION_COLUMNS = 'id, workspace_roots, mode, agent_role, created_at, updated_at, message_count';
const MESSAGE_COLUMNS = 'session_id, sequence, id, role, body, created_at';

let construct: (pool: Pool, schema: string, server: string, now: StoreClock, schemaVersion: number) => PostgresSessionStore;

/**
 * Connects a store whose schema ends at the last of `migrations`. Not public: tests build
 * databases of an older schema with the first migrations only.
 */
export async function connectPostgresSessionStore(
  options: PostgresSessionStoreOptions,
  migrations: readonly PostgresMigration[],
): Promise<PostgresSessionStore> {
  if (typeof options?.connectionString !== 'string' || options.connectionString.length === 0) {
    throw new TypeError('PostgresSessionStore.connect needs a connectionString, e.g. postgresql://user:password@host:5432/database');
  }
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) {
    throw new TypeError(`schema ${JSON.stringify(schema)} is not a plain schema name: use lower-case letters, digits and _, at most 63 characters`);
  }
  const server = describePostgresServer(options.connectionString);
  // Loaded when first used: importing this package does not load the driver.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
    application_name: options.applicationName ?? 'openwork-session-store',
  });
  // An idle connection that the server drops must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  try {
    const version = await inTransaction(pool, server, (client) => migratePostgresSchema(client, schema, migrations, server));
    return construct(pool, schema, server, options.now ?? systemClock, version);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}

/**
 * The `SessionStore` for many hosts: PostgreSQL through a connection pool. Every write is one
 * transaction that first locks the session's row, so writers of one session — on any host — take
 * turns: messages get gapless sequence numbers, and an `undone` update compares and sets under
 * that lock (of two hosts undoing one change, exactly one wins). The schema is migrated on
 * connect under an advisory lock.
 */
export class PostgresSessionStore implements SessionStore {
  /** The schema holding the store's tables. */
  readonly schema: string;
  /** The schema version after migrating. */
  readonly schemaVersion: number;
  readonly #pool: Pool;
  readonly #server: string;
  readonly #now: StoreClock;
  readonly #table: {
    readonly sessions: string;
    readonly messages: string;
    readonly toolCalls: string;
    readonly fileChanges: string;
    readonly agentRuns: string;
    readonly mailbox: string;
    readonly plans: string;
    readonly backgroundTasks: string;
  };
  #closed = false;

  private constructor(pool: Pool, schema: string, server: string, now: StoreClock, schemaVersion: number) {
    this.#pool = pool;
    this.schema = schema;
    this.#server = server;
    this.#now = now;
    this.schemaVersion = schemaVersion;
    const quoted = quoteIdentifier(schema);
    this.#table = {
      sessions: `${quoted}.sessions`,
      messages: `${quoted}.messages`,
      toolCalls: `${quoted}.tool_calls`,
      fileChanges: `${quoted}.file_changes`,
      agentRuns: `${quoted}.agent_runs`,
      mailbox: `${quoted}.agent_mailbox`,
      plans: `${quoted}.session_plans`,
      backgroundTasks: `${quoted}.background_tasks`,
    };
  }

  /**
   * Connects a pool and migrates the schema. An unreachable server, refused credentials, a newer
   * schema or tables of another program are typed errors; nothing is changed in those cases.
   */
  static async connect(options: PostgresSessionStoreOptions): Promise<PostgresSessionStore> {
    return connectPostgresSessionStore(options, POSTGRES_MIGRATIONS);
  }

  static {
    construct = (pool, schema, server, now, schemaVersion) => new PostgresSessionStore(pool, schema, server, now, schemaVersion);
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    const record = prepareNewSession(session, storeTimestamp(this.#now));
    const inserted = await this.#query<{ id: string }>(
      'createSession',
      `INSERT INTO ${this.#table.sessions} (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, 0) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [record.id, JSON.stringify(record.workspaceRoots), record.mode, record.agentRole, record.createdAt, record.updatedAt],
    );
    if (inserted.length === 0) throw new SessionExistsError(record.id);
    return record;
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    const rows = await this.#query<SessionRow>('getSession', `SELECT ${SESSION_COLUMNS} FROM ${this.#table.sessions} WHERE id = $1`, [
      checkRecordId(sessionId, 'session id'),
    ]);
    return rows[0] === undefined ? undefined : decodeSessionRow(rows[0]);
  }

  async listSessions(options?: ListSessionsOptions): Promise<SessionRecord[]> {
    const { limit } = checkListSessionsOptions(options);
    const rows = await this.#query<SessionRow>(
      'listSessions',
      `SELECT ${SESSION_COLUMNS} FROM ${this.#table.sessions} ORDER BY updated_at DESC, id LIMIT $1`,
      [limit],
    );
    return rows.map(decodeSessionRow);
  }

  async updateSession(sessionId: string, changes: SessionChanges): Promise<SessionRecord> {
    const checked = checkSessionChanges(changes);
    return this.#write('updateSession', async (client) => {
      const record = applySessionChanges(decodeSessionRow(await this.#lockSession(client, sessionId)), checked, storeTimestamp(this.#now));
      await client.query(`UPDATE ${this.#table.sessions} SET workspace_roots = $1, mode = $2, agent_role = $3, updated_at = $4 WHERE id = $5`, [
        JSON.stringify(record.workspaceRoots),
        record.mode,
        record.agentRole,
        record.updatedAt,
        record.id,
      ]);
      return record;
    });
  }

  async deleteSession(sessionId: string): Promise<boolean> {
    const deleted = await this.#query<{ id: string }>('deleteSession', `DELETE FROM ${this.#table.sessions} WHERE id = $1 RETURNING id`, [
      checkRecordId(sessionId, 'session id'),
    ]);
    return deleted.length > 0;
  }

  async appendMessage(sessionId: string, message: NewMessage): Promise<StoredMessage> {
    const prepared = prepareMessage(message);
    // Three round trips inside the transaction: lock the session (and find a message with the
    // same id), look up the ids the log's rules care about, write everything in one statement.
    return this.#write('appendMessage', async (client) => {
      const found = await client.query<SessionRow & { existing_sequence: number | null; existing_role: string | null; existing_body: string | null; existing_created_at: string | null }>(
        `SELECT s.id, s.workspace_roots, s.mode, s.agent_role, s.created_at, s.updated_at, s.message_count,
                m.sequence AS existing_sequence, m.role AS existing_role, m.body AS existing_body, m.created_at AS existing_created_at
           FROM ${this.#table.sessions} s LEFT JOIN ${this.#table.messages} m ON m.session_id = s.id AND m.id = $2
          WHERE s.id = $1 FOR UPDATE OF s`,
        [checkRecordId(sessionId, 'session id'), prepared.id],
      );
      const session = found.rows[0];
      if (session === undefined) throw new SessionNotFoundError(sessionId);
      if (session.existing_sequence !== null) {
        // The same id again: the same content is an idempotent retry, other content a conflict.
        MessageLogRules.checkAppend(sessionId, prepared, { sequence: session.existing_sequence, role: session.existing_role ?? '', body: session.existing_body ?? '' }, NO_LOOKUP);
        return decodeStoredMessage({
          sessionId,
          id: prepared.id,
          sequence: session.existing_sequence,
          role: prepared.role,
          body: prepared.body,
          createdAt: session.existing_created_at ?? '',
        });
      }
      await this.#checkRules(client, sessionId, prepared);
      return this.#insertMessage(client, session, prepared);
    });
  }

  async loadMessages(sessionId: string, options?: LoadMessagesOptions): Promise<StoredMessage[]> {
    checkRecordId(sessionId, 'session id');
    const { afterSequence, limit } = checkLoadMessagesOptions(options);
    // One statement, one snapshot: the session's existence and its messages agree.
    const rows = await this.#query<MessageColumns & { found: string }>(
      'loadMessages',
      `SELECT s.id AS found, m.session_id, m.sequence, m.id, m.role, m.body, m.created_at
         FROM ${this.#table.sessions} s
         LEFT JOIN LATERAL (
           SELECT ${MESSAGE_COLUMNS} FROM ${this.#table.messages}
            WHERE session_id = s.id AND sequence > $2 ORDER BY sequence LIMIT $3
         ) m ON true
        WHERE s.id = $1
        ORDER BY m.sequence`,
      [sessionId, afterSequence, limit],
    );
    if (rows.length === 0) throw new SessionNotFoundError(sessionId);
    return rows.filter((row) => row.session_id !== null).map((row) => decodeStoredMessage(toMessageRow(row)));
  }

  async listFileChanges(sessionId: string): Promise<FileChangeRecord[]> {
    checkRecordId(sessionId, 'session id');
    const rows = await this.#query<ChangeColumns & { found: string }>(
      'listFileChanges',
      `SELECT s.id AS found, m.session_id, m.sequence, m.id, m.role, m.body, m.created_at, c.change_id, c.artifact_index, c.undone
         FROM ${this.#table.sessions} s
         LEFT JOIN ${this.#table.fileChanges} c ON c.session_id = s.id
         LEFT JOIN ${this.#table.messages} m ON m.session_id = c.session_id AND m.sequence = c.message_sequence
        WHERE s.id = $1
        ORDER BY c.message_sequence, c.artifact_index`,
      [sessionId],
    );
    if (rows.length === 0) throw new SessionNotFoundError(sessionId);
    return rows.filter((row) => row.session_id !== null).map((row) => decodeFileChange(toMessageRow(row), row.artifact_index));
  }

  async setUndone(sessionId: string, update: UndoneUpdate): Promise<FileChangeRecord[]> {
    const { changeIds, undone } = checkUndoneUpdate(update);
    return this.#write('setUndone', async (client) => {
      // The session's row lock makes compare-then-set atomic across hosts (§8.4).
      const session = await this.#lockSession(client, sessionId);
      const found = await client.query<ChangeColumns>(
        `SELECT m.session_id, m.sequence, m.id, m.role, m.body, m.created_at, c.change_id, c.artifact_index, c.undone
           FROM ${this.#table.fileChanges} c JOIN ${this.#table.messages} m ON m.session_id = c.session_id AND m.sequence = c.message_sequence
          WHERE c.session_id = $1 AND c.change_id = ANY($2)`,
        [sessionId, changeIds],
      );
      const byId = new Map(found.rows.map((row) => [row.change_id, row]));
      const changes = changeIds.map((changeId) => {
        const change = byId.get(changeId);
        if (change === undefined) throw new ChangeNotFoundError(sessionId, changeId);
        if (change.undone === undone) throw new UndoneConflictError(sessionId, changeId, undone);
        return change;
      });
      // Rewrite each message once, even when several changes of the batch live in it.
      const messages = new Map<number, MessageRow>();
      for (const change of changes) {
        const current = messages.get(change.sequence) ?? toMessageRow(change);
        messages.set(change.sequence, { ...current, body: rewriteArtifactUndone(current, change.artifact_index, undone) });
      }
      await client.query(
        `WITH bodies AS (
           UPDATE ${this.#table.messages} m SET body = b.body FROM unnest($2::integer[], $3::text[]) AS b (sequence, body)
            WHERE m.session_id = $1 AND m.sequence = b.sequence
         ), changes AS (
           UPDATE ${this.#table.fileChanges} SET undone = $4 WHERE session_id = $1 AND change_id = ANY($5)
         )
         UPDATE ${this.#table.sessions} SET updated_at = $6 WHERE id = $1`,
        [
          sessionId,
          [...messages.keys()],
          [...messages.values()].map((message) => message.body),
          undone,
          changeIds,
          laterTimestamp(session.updated_at, storeTimestamp(this.#now)),
        ],
      );
      return changes.map((change) => decodeFileChange(messages.get(change.sequence) ?? toMessageRow(change), change.artifact_index));
    });
  }

  async createAgentRun(input: NewAgentRun): Promise<AgentRunCreated> {
    const { run, child } = AgentRunRules.prepare(input, storeTimestamp(this.#now));
    return this.#write('createAgentRun', async (client) => {
      // The parent's row lock orders delegates of one parent: an idempotency key is looked up and used under it.
      await this.#lockSession(client, run.parentSessionId);
      if (run.idempotencyKey !== null) {
        const existing = await client.query<{ body: string }>(`SELECT body FROM ${this.#table.agentRuns} WHERE parent_session_id = $1 AND idempotency_key = $2`, [
          run.parentSessionId,
          run.idempotencyKey,
        ]);
        if (existing.rows[0] !== undefined) return { run: AgentRunRules.decode(existing.rows[0].body), created: false };
      }
      const inserted = await client.query<{ id: string }>(
        `INSERT INTO ${this.#table.sessions} (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, 0) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [child.id, JSON.stringify(child.workspaceRoots), child.mode, child.agentRole, child.createdAt, child.updatedAt],
      );
      if (inserted.rows.length === 0) throw new SessionExistsError(child.id);
      await client.query(
        `INSERT INTO ${this.#table.agentRuns} (id, parent_session_id, idempotency_key, state, lease_owner, lease_expires_at, created_at, body)
         VALUES ($1, $2, $3, $4, NULL, NULL, $5, $6)`,
        [run.id, run.parentSessionId, run.idempotencyKey, run.state, run.createdAt, AgentRunRules.encode(run)],
      );
      return { run, created: true };
    });
  }

  async getAgentRun(agentId: string): Promise<AgentRunRecord | undefined> {
    const rows = await this.#query<{ body: string }>('getAgentRun', `SELECT body FROM ${this.#table.agentRuns} WHERE id = $1`, [checkRecordId(agentId, 'agent id')]);
    return rows[0] === undefined ? undefined : AgentRunRules.decode(rows[0].body);
  }

  async listAgentRuns(parentSessionId: string): Promise<AgentRunRecord[]> {
    checkRecordId(parentSessionId, 'parent session id');
    const rows = await this.#query<{ found: string; body: string | null }>(
      'listAgentRuns',
      `SELECT s.id AS found, r.body FROM ${this.#table.sessions} s
         LEFT JOIN ${this.#table.agentRuns} r ON r.parent_session_id = s.id
        WHERE s.id = $1 ORDER BY r.created_at, r.created_order`,
      [parentSessionId],
    );
    if (rows.length === 0) throw new SessionNotFoundError(parentSessionId);
    return rows.flatMap((row) => (row.body === null ? [] : [AgentRunRules.decode(row.body)]));
  }

  async claimAgentRun(agentId: string, lease: AgentRunLease): Promise<AgentRunRecord | undefined> {
    AgentRunRules.checkLease(lease);
    return this.#write('claimAgentRun', (client) => this.#replaceRun(client, agentId, (run) => AgentRunRules.claim(run, lease, this.#now())));
  }

  async claimAgentRuns(options: ClaimAgentRunsOptions): Promise<AgentRunRecord[]> {
    const { owner, leaseMs, limit } = AgentRunRules.checkClaimMany(options);
    return this.#write('claimAgentRuns', async (client) => {
      const now = this.#now();
      // SKIP LOCKED: hosts claiming at once each take different rows, nobody waits for another's.
      const found = await client.query<{ body: string }>(
        `SELECT body FROM ${this.#table.agentRuns}
          WHERE state IN ('queued', 'running') AND (lease_owner IS NULL OR (lease_owner <> $1 AND lease_expires_at <= $2))
          ORDER BY created_at, created_order LIMIT $3 FOR UPDATE SKIP LOCKED`,
        [owner, now.toISOString(), limit],
      );
      const claimed: AgentRunRecord[] = [];
      for (const row of found.rows) {
        const next = AgentRunRules.claim(AgentRunRules.decode(row.body), { owner, leaseMs }, now);
        if (next === undefined) continue;
        await this.#writeRun(client, next);
        claimed.push(next);
      }
      return claimed;
    });
  }

  async releaseAgentRun(agentId: string, owner: string): Promise<boolean> {
    checkRecordId(owner, 'lease owner');
    const released = await this.#write('releaseAgentRun', (client) => this.#replaceRun(client, agentId, (run) => AgentRunRules.release(run, owner, this.#now())));
    return released !== undefined;
  }

  async finishAgentRun(agentId: string, finish: AgentRunFinish): Promise<AgentRunRecord | undefined> {
    return this.#write('finishAgentRun', async (client) => {
      // Lock the parent first, then the run (the order a delete takes): its row lock numbers the
      // mailbox gaplessly across hosts.
      const parent = await client.query<{ parent_session_id: string }>(`SELECT parent_session_id FROM ${this.#table.agentRuns} WHERE id = $1`, [
        checkRecordId(agentId, 'agent id'),
      ]);
      if (parent.rows[0] === undefined) throw new AgentRunNotFoundError(agentId);
      await this.#lockSession(client, parent.rows[0].parent_session_id);
      const current = await this.#lockRun(client, agentId);
      const ended = AgentRunRules.finish(current, finish, this.#now());
      if (ended === undefined) return undefined;
      await this.#writeRun(client, ended.run);
      const { entry } = ended;
      await client.query(
        `INSERT INTO ${this.#table.mailbox} (parent_session_id, sequence, agent_id, round, body, delivered, created_at)
         SELECT $1, COALESCE(MAX(sequence), 0) + 1, $2, $3, $4, false, $5 FROM ${this.#table.mailbox} WHERE parent_session_id = $1`,
        [entry.parentSessionId, entry.agentId, entry.round, AgentRunRules.encodeEntry(entry), entry.createdAt],
      );
      return ended.run;
    });
  }

  async reopenAgentRun(agentId: string, prompt: string): Promise<AgentRunRecord | undefined> {
    return this.#write('reopenAgentRun', (client) => this.#replaceRun(client, agentId, (run) => AgentRunRules.reopen(run, prompt, this.#now())));
  }

  async listMailbox(parentSessionId: string, options: ListMailboxOptions = {}): Promise<MailboxEntry[]> {
    checkRecordId(parentSessionId, 'session id');
    const rows = await this.#query<MailboxColumns & { found: string }>(
      'listMailbox',
      `SELECT s.id AS found, b.parent_session_id, b.sequence, b.agent_id, b.round, b.body, b.delivered, b.created_at
         FROM ${this.#table.sessions} s
         LEFT JOIN ${this.#table.mailbox} b ON b.parent_session_id = s.id AND ($2::boolean = false OR b.delivered = false)
        WHERE s.id = $1 ORDER BY b.sequence`,
      [parentSessionId, options.undelivered === true],
    );
    if (rows.length === 0) throw new SessionNotFoundError(parentSessionId);
    return rows.filter((row) => row.parent_session_id !== null).map(toMailboxEntry);
  }

  async markMailboxDelivered(parentSessionId: string, sequences: readonly number[]): Promise<number[]> {
    checkRecordId(parentSessionId, 'session id');
    const wanted = AgentRunRules.checkSequences(sequences);
    return this.#write('markMailboxDelivered', async (client) => {
      await this.#lockSession(client, parentSessionId);
      const marked = await client.query<{ sequence: number }>(
        `UPDATE ${this.#table.mailbox} SET delivered = true WHERE parent_session_id = $1 AND sequence = ANY($2::integer[]) AND delivered = false RETURNING sequence`,
        [parentSessionId, [...wanted]],
      );
      return marked.rows.map((row) => row.sequence).sort((a, b) => a - b);
    });
  }

  async getPlan(sessionId: string): Promise<SessionPlan | undefined> {
    checkRecordId(sessionId, 'session id');
    const rows = await this.#query<{ found: string; body: string | null; updated_at: string | null }>(
      'getPlan',
      `SELECT s.id AS found, p.body, p.updated_at FROM ${this.#table.sessions} s LEFT JOIN ${this.#table.plans} p ON p.session_id = s.id WHERE s.id = $1`,
      [sessionId],
    );
    const row = rows[0];
    if (row === undefined) throw new SessionNotFoundError(sessionId);
    return row.body === null ? undefined : PlanRules.decode(sessionId, row.body, row.updated_at ?? '');
  }

  async setPlan(sessionId: string, plan: NewSessionPlan): Promise<SessionPlan> {
    checkRecordId(sessionId, 'session id');
    const prepared = PlanRules.prepare(sessionId, plan, storeTimestamp(this.#now));
    return this.#write('setPlan', async (client) => {
      await this.#lockSession(client, sessionId);
      await client.query(
        `INSERT INTO ${this.#table.plans} (session_id, body, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (session_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
        [sessionId, PlanRules.encode(prepared), prepared.updatedAt],
      );
      return prepared;
    });
  }

  async saveBackgroundTask(sessionId: string, task: NewBackgroundTaskRecord): Promise<BackgroundTaskRecord> {
    checkRecordId(sessionId, 'session id');
    const prepared = BackgroundTaskRules.prepare(sessionId, task, storeTimestamp(this.#now));
    return this.#write('saveBackgroundTask', async (client) => {
      // The session's row lock orders saves of one session across hosts (and the pruning below).
      await this.#lockSession(client, sessionId);
      await client.query(
        `INSERT INTO ${this.#table.backgroundTasks} (session_id, task_id, started_at, body, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (session_id, task_id) DO UPDATE SET started_at = excluded.started_at, body = excluded.body, updated_at = excluded.updated_at`,
        [sessionId, prepared.taskId, prepared.startedAt, BackgroundTaskRules.encode(prepared), prepared.updatedAt],
      );
      await client.query(
        `DELETE FROM ${this.#table.backgroundTasks} WHERE session_id = $1 AND task_id NOT IN
         (SELECT task_id FROM ${this.#table.backgroundTasks} WHERE session_id = $1 ORDER BY started_at COLLATE "C" DESC, task_id COLLATE "C" DESC LIMIT $2)`,
        [sessionId, MAX_STORED_BACKGROUND_TASKS],
      );
      return prepared;
    });
  }

  async listBackgroundTasks(sessionId: string): Promise<BackgroundTaskRecord[]> {
    checkRecordId(sessionId, 'session id');
    const rows = await this.#query<{ found: string; task_id: string | null; started_at: string | null; body: string | null; updated_at: string | null }>(
      'listBackgroundTasks',
      `SELECT s.id AS found, t.task_id, t.started_at, t.body, t.updated_at FROM ${this.#table.sessions} s
       LEFT JOIN ${this.#table.backgroundTasks} t ON t.session_id = s.id WHERE s.id = $1
       ORDER BY t.started_at COLLATE "C", t.task_id COLLATE "C"`,
      [sessionId],
    );
    if (rows[0] === undefined) throw new SessionNotFoundError(sessionId);
    return rows.filter((row) => row.task_id !== null).map((row) => BackgroundTaskRules.decode(sessionId, row.task_id ?? '', row.body ?? '', row.started_at ?? '', row.updated_at ?? ''));
  }

  async #lockRun(client: PoolClient, agentId: string): Promise<AgentRunRecord> {
    const found = await client.query<{ body: string }>(`SELECT body FROM ${this.#table.agentRuns} WHERE id = $1 FOR UPDATE`, [checkRecordId(agentId, 'agent id')]);
    const row = found.rows[0];
    if (row === undefined) throw new AgentRunNotFoundError(agentId);
    return AgentRunRules.decode(row.body);
  }

  /** Locks the run's row, applies `change` and writes the new record; `undefined` when `change` refuses. */
  async #replaceRun(client: PoolClient, agentId: string, change: (run: AgentRunRecord) => AgentRunRecord | undefined): Promise<AgentRunRecord | undefined> {
    const next = change(await this.#lockRun(client, agentId));
    if (next !== undefined) await this.#writeRun(client, next);
    return next;
  }

  async #writeRun(client: PoolClient, run: AgentRunRecord): Promise<void> {
    await client.query(`UPDATE ${this.#table.agentRuns} SET state = $1, lease_owner = $2, lease_expires_at = $3, body = $4 WHERE id = $5`, [
      run.state,
      run.leaseOwner,
      run.leaseExpiresAt,
      AgentRunRules.encode(run),
      run.id,
    ]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }

  async #insertMessage(client: PoolClient, session: SessionRow, prepared: PreparedMessage): Promise<StoredMessage> {
    const timestamp = storeTimestamp(this.#now);
    const sequence = session.message_count + 1;
    const row: MessageRow = { sessionId: session.id, id: prepared.id, sequence, role: prepared.role, body: prepared.body, createdAt: timestamp };
    // One statement: the message, the calls it makes, the call it answers, its file changes and the
    // session's count. Foreign keys are checked at the end of the statement, when all rows exist.
    await client.query(
      `WITH message AS (
         INSERT INTO ${this.#table.messages} (${MESSAGE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
       ), calls AS (
         INSERT INTO ${this.#table.toolCalls} (session_id, tool_call_id, tool_id, call_sequence)
         SELECT $1, call.id, call.tool_id, $2 FROM unnest($7::text[], $8::text[]) AS call (id, tool_id)
       ), answered AS (
         UPDATE ${this.#table.toolCalls} SET result_sequence = $2 WHERE session_id = $1 AND tool_call_id = $9
       ), changes AS (
         INSERT INTO ${this.#table.fileChanges} (session_id, change_id, message_sequence, artifact_index, path, undone)
         SELECT $1, change.id, $2, change.artifact_index, change.path, change.undone
           FROM unnest($10::text[], $11::integer[], $12::text[], $13::boolean[]) AS change (id, artifact_index, path, undone)
       )
       UPDATE ${this.#table.sessions} SET message_count = $2, updated_at = $14 WHERE id = $1`,
      [
        row.sessionId,
        row.sequence,
        row.id,
        row.role,
        row.body,
        row.createdAt,
        prepared.toolCalls.map((call) => call.id),
        prepared.toolCalls.map((call) => call.toolId),
        prepared.answeredCall?.id ?? null,
        prepared.fileChanges.map((change) => change.changeId),
        prepared.fileChanges.map((change) => change.artifactIndex),
        prepared.fileChanges.map((change) => change.path),
        prepared.fileChanges.map((change) => change.undone),
        laterTimestamp(session.updated_at, timestamp),
      ],
    );
    return decodeStoredMessage(row);
  }

  /** Fetches the rows the message log's rules look at, then applies them (`MessageLogRules.checkAppend`). */
  async #checkRules(client: PoolClient, sessionId: string, prepared: PreparedMessage): Promise<void> {
    const answered = prepared.answeredCall;
    const callIds = [...prepared.toolCalls.map((call) => call.id), ...(answered === null ? [] : [answered.id])];
    const changeIds = prepared.fileChanges.map((change) => change.changeId);
    if (callIds.length === 0 && changeIds.length === 0) return;
    const found = await client.query<{ kind: 'call' | 'change'; id: string; tool_id: string | null; sequence: number; result_sequence: number | null }>(
      `SELECT 'call' AS kind, tool_call_id AS id, tool_id, call_sequence AS sequence, result_sequence
         FROM ${this.#table.toolCalls} WHERE session_id = $1 AND tool_call_id = ANY($2)
       UNION ALL
       SELECT 'change', change_id, NULL, message_sequence, NULL
         FROM ${this.#table.fileChanges} WHERE session_id = $1 AND change_id = ANY($3)`,
      [sessionId, callIds, changeIds],
    );
    const calls = new Map(found.rows.filter((row) => row.kind === 'call').map((row) => [row.id, row]));
    const changes = new Map(found.rows.filter((row) => row.kind === 'change').map((row) => [row.id, row.sequence]));
    MessageLogRules.checkAppend(sessionId, prepared, undefined, {
      call: (id) => {
        const row = calls.get(id);
        return row === undefined ? undefined : { toolId: row.tool_id ?? '', callSequence: row.sequence, resultSequence: row.result_sequence };
      },
      change: (id) => changes.get(id),
    });
  }

  async #lockSession(client: PoolClient, sessionId: string): Promise<SessionRow> {
    const found = await client.query<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM ${this.#table.sessions} WHERE id = $1 FOR UPDATE`, [
      checkRecordId(sessionId, 'session id'),
    ]);
    const row = found.rows[0];
    if (row === undefined) throw new SessionNotFoundError(sessionId);
    return row;
  }

  /** One statement outside a transaction (a read, or a write that is one statement). */
  async #query<R extends object>(operation: string, sql: string, values: readonly unknown[]): Promise<R[]> {
    if (this.#closed) throw new StoreClosedError(operation);
    try {
      return (await this.#pool.query<R>(sql, values as unknown[])).rows;
    } catch (error) {
      throw toPostgresStoreError(error, this.#server);
    }
  }

  /** Runs `action` in one transaction: all of it is written, or none. */
  async #write<T>(operation: string, action: (client: PoolClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new StoreClosedError(operation);
    return inTransaction(this.#pool, this.#server, action);
  }
}

/**
 * Runs `action` between BEGIN and COMMIT on one pooled connection. On failure it rolls back; a
 * connection that broke is destroyed instead of going back to the pool.
 */
async function inTransaction<T>(pool: Pool, server: string, action: (client: PoolClient) => Promise<T>): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw toPostgresStoreError(error, server);
  }
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await action(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    broken = isConnectionLoss(error);
    if (!broken) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
    }
    throw toPostgresStoreError(error, server);
  } finally {
    client.release(broken ? true : undefined);
  }
}

interface MailboxColumns {
  readonly parent_session_id: string;
  readonly sequence: number;
  readonly agent_id: string;
  readonly round: number;
  readonly body: string;
  readonly delivered: boolean;
  readonly created_at: string;
}

function toMailboxEntry(row: MailboxColumns): MailboxEntry {
  return AgentRunRules.decodeEntry({
    parentSessionId: row.parent_session_id,
    sequence: row.sequence,
    agentId: row.agent_id,
    round: row.round,
    body: row.body,
    delivered: row.delivered,
    createdAt: row.created_at,
  });
}

function toMessageRow(row: MessageColumns): MessageRow {
  return { sessionId: row.session_id, id: row.id, sequence: row.sequence, role: row.role as MessageRole, body: row.body, createdAt: row.created_at };
}
