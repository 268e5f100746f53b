/** One step of the SQLite schema; `version` is what `PRAGMA user_version` says after it. */
export interface SqliteMigration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/**
 * The schema, as the steps that build it. A database records the last step applied in
 * `PRAGMA user_version`; opening applies the missing steps in one transaction each. Steps are
 * never edited once released: a change is a new step. Version numbers and meanings match the
 * PostgreSQL store's migrations.
 */
export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = Object.freeze([
  {
    version: 1,
    description: 'sessions, messages, tool calls and file changes',
    sql: `
      CREATE TABLE sessions (
        id TEXT NOT NULL PRIMARY KEY,
        workspace_roots TEXT NOT NULL,
        mode TEXT NOT NULL,
        agent_role TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        message_count INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE TABLE messages (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        sequence INTEGER NOT NULL,
        id TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
        body TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, sequence),
        UNIQUE (session_id, id)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE tool_calls (
        session_id TEXT NOT NULL,
        tool_call_id TEXT NOT NULL,
        tool_id TEXT NOT NULL,
        call_sequence INTEGER NOT NULL,
        result_sequence INTEGER,
        PRIMARY KEY (session_id, tool_call_id),
        FOREIGN KEY (session_id, call_sequence) REFERENCES messages (session_id, sequence) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE file_changes (
        session_id TEXT NOT NULL,
        change_id TEXT NOT NULL,
        message_sequence INTEGER NOT NULL,
        artifact_index INTEGER NOT NULL,
        path TEXT NOT NULL,
        undone INTEGER NOT NULL CHECK (undone IN (0, 1)),
        PRIMARY KEY (session_id, change_id),
        FOREIGN KEY (session_id, message_sequence) REFERENCES messages (session_id, sequence) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX file_changes_by_message ON file_changes (session_id, message_sequence, artifact_index);
    `,
  },
  {
    version: 2,
    description: 'list sessions by last update without a full scan',
    sql: `CREATE INDEX sessions_by_update ON sessions (updated_at DESC, id);`,
  },
  {
    version: 3,
    description: 'sub-agent runs, the completion mailbox and plans',
    sql: `
      CREATE TABLE agent_runs (
        id TEXT NOT NULL PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        parent_session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        idempotency_key TEXT,
        state TEXT NOT NULL,
        lease_owner TEXT,
        lease_expires_at TEXT,
        created_at TEXT NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (parent_session_id, idempotency_key)
      ) STRICT;
      CREATE INDEX agent_runs_by_parent ON agent_runs (parent_session_id, created_at, id);
      CREATE INDEX agent_runs_by_state ON agent_runs (state, created_at, id);
      CREATE TABLE agent_mailbox (
        parent_session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        sequence INTEGER NOT NULL,
        agent_id TEXT NOT NULL,
        round INTEGER NOT NULL,
        body TEXT NOT NULL,
        delivered INTEGER NOT NULL CHECK (delivered IN (0, 1)),
        created_at TEXT NOT NULL,
        PRIMARY KEY (parent_session_id, sequence),
        UNIQUE (agent_id, round)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE session_plans (
        session_id TEXT NOT NULL PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        body TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    description: 'background task records',
    sql: `
      CREATE TABLE background_tasks (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        task_id TEXT NOT NULL,
        started_at TEXT NOT NULL,
        body TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (session_id, task_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX background_tasks_by_start ON background_tasks (session_id, started_at, task_id);
    `,
  },
]);

/** `PRAGMA application_id` of an OpenWork session database ("OWSS"), so another program's SQLite file is never mistaken for one. */
export const SQLITE_APPLICATION_ID = 0x4f575353;
