/**
 * One step of the PostgreSQL schema. `sql` names tables as `{schema}.table`; the store puts its
 * quoted schema name there. Version numbers and meanings match the SQLite store's migrations.
 */
export interface PostgresMigration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/**
 * The schema, as the steps that build it. `{schema}.schema_migrations` records every step applied;
 * connecting applies the missing ones in one transaction under an advisory lock, so processes
 * that connect at once migrate once. Steps are never edited once released: a change is a new step.
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = Object.freeze([
  {
    version: 1,
    description: 'sessions, messages, tool calls and file changes',
    sql: `
      CREATE TABLE {schema}.sessions (
        id text NOT NULL PRIMARY KEY,
        workspace_roots text NOT NULL,
        mode text NOT NULL,
        agent_role text NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        message_count integer NOT NULL DEFAULT 0
      );
      CREATE TABLE {schema}.messages (
        session_id text NOT NULL REFERENCES {schema}.sessions (id) ON DELETE CASCADE,
        sequence integer NOT NULL,
        id text NOT NULL,
        role text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
        body text NOT NULL,
        created_at text NOT NULL,
        PRIMARY KEY (session_id, sequence),
        UNIQUE (session_id, id)
      );
      CREATE TABLE {schema}.tool_calls (
        session_id text NOT NULL,
        tool_call_id text NOT NULL,
        tool_id text NOT NULL,
        call_sequence integer NOT NULL,
        result_sequence integer,
        PRIMARY KEY (session_id, tool_call_id),
        FOREIGN KEY (session_id, call_sequence) REFERENCES {schema}.messages (session_id, sequence) ON DELETE CASCADE
      );
      CREATE TABLE {schema}.file_changes (
        session_id text NOT NULL,
        change_id text NOT NULL,
        message_sequence integer NOT NULL,
        artifact_index integer NOT NULL,
        path text NOT NULL,
        undone boolean NOT NULL,
        PRIMARY KEY (session_id, change_id),
        FOREIGN KEY (session_id, message_sequence) REFERENCES {schema}.messages (session_id, sequence) ON DELETE CASCADE
      );
      CREATE INDEX file_changes_by_message ON {schema}.file_changes (session_id, message_sequence, artifact_index);
      CREATE INDEX tool_calls_by_message ON {schema}.tool_calls (session_id, call_sequence);
    `,
  },
  {
    version: 2,
    description: 'list sessions by last update without a full scan',
    sql: `CREATE INDEX sessions_by_update ON {schema}.sessions (updated_at DESC, id);`,
  },
  {
    version: 3,
    description: 'sub-agent runs, the completion mailbox and plans',
    sql: `
      CREATE TABLE {schema}.agent_runs (
        id text NOT NULL PRIMARY KEY REFERENCES {schema}.sessions (id) ON DELETE CASCADE,
        parent_session_id text NOT NULL REFERENCES {schema}.sessions (id) ON DELETE CASCADE,
        idempotency_key text,
        state text NOT NULL,
        lease_owner text,
        lease_expires_at text,
        created_at text NOT NULL,
        created_order bigserial NOT NULL,
        body text NOT NULL,
        UNIQUE (parent_session_id, idempotency_key)
      );
      CREATE INDEX agent_runs_by_parent ON {schema}.agent_runs (parent_session_id, created_at, created_order);
      CREATE INDEX agent_runs_by_state ON {schema}.agent_runs (state, created_at, created_order);
      CREATE TABLE {schema}.agent_mailbox (
        parent_session_id text NOT NULL REFERENCES {schema}.sessions (id) ON DELETE CASCADE,
        sequence integer NOT NULL,
        agent_id text NOT NULL,
        round integer NOT NULL,
        body text NOT NULL,
        delivered boolean NOT NULL,
        created_at text NOT NULL,
        PRIMARY KEY (parent_session_id, sequence),
        UNIQUE (agent_id, round)
      );
      CREATE TABLE {schema}.session_plans (
        session_id text NOT NULL PRIMARY KEY REFERENCES {schema}.sessions (id) ON DELETE CASCADE,
        body text NOT NULL,
        updated_at text NOT NULL
      );
    `,
  },
  {
    version: 4,
    description: 'background task records',
    sql: `
      CREATE TABLE {schema}.background_tasks (
        session_id text NOT NULL REFERENCES {schema}.sessions (id) ON DELETE CASCADE,
        task_id text NOT NULL,
        started_at text NOT NULL,
        body text NOT NULL,
        updated_at text NOT NULL,
        PRIMARY KEY (session_id, task_id)
      );
      CREATE INDEX background_tasks_by_start ON {schema}.background_tasks (session_id, started_at COLLATE "C", task_id COLLATE "C");
    `,
  },
]);
