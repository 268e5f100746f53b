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
]);
