import { afterAll, afterEach, expect, it } from 'vitest';
import {
  IncompatibleSchemaError,
  StoreUnavailableError,
  type NewMessage,
  type NewToolMessage,
  type StoredMessage,
} from '@openwork/session-store';
import { completeToolTurn } from '@openwork/session-store/contract';
import { POSTGRES_MIGRATIONS, PostgresSessionStore } from './index.js';
import { connectPostgresSessionStore } from './postgres-session-store.js';
import { TEST_DATABASE_URL, adminPool, describeWithPostgres, dropSchemas, throwawaySchema } from './test-support/postgres-test-database.js';

const ROOT = '/home/me/project';

async function caught(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to fail');
}

describeWithPostgres('PostgresSessionStore', () => {
  const admin = adminPool();
  const schemas: string[] = [];
  const stores: PostgresSessionStore[] = [];

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await dropSchemas(admin, schemas.splice(0));
  });
  afterAll(async () => {
    await admin.end();
  });

  function newSchema(): string {
    const schema = throwawaySchema();
    schemas.push(schema);
    return schema;
  }

  async function connect(schema: string, extra: { applicationName?: string } = {}): Promise<PostgresSessionStore> {
    const store = await PostgresSessionStore.connect({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4, ...extra });
    stores.push(store);
    return store;
  }

  async function tables(schema: string): Promise<string[]> {
    const result = await admin.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [schema],
    );
    return result.rows.map((row) => row.table_name);
  }

  async function recordedVersions(schema: string): Promise<number[]> {
    const result = await admin.query<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    return result.rows.map((row) => row.version);
  }

  it('postgres_storage_round_trips_a_complete_tool_turn', async () => {
    const schema = newSchema();
    const host = await PostgresSessionStore.connect({ connectionString: TEST_DATABASE_URL, schema });
    const session = await host.createSession({ id: 'round-trip', workspaceRoots: [ROOT], mode: 'workspace-write', agentRole: 'default' });
    const turn: NewMessage[] = completeToolTurn();
    const stored: StoredMessage[] = [];
    for (const message of turn) stored.push(await host.appendMessage(session.id, message));
    await host.setUndone(session.id, { changeIds: ['turn-1-call-edit'], undone: true });
    await host.close();

    // Another host (a new pool): every message, the tool result with its artifact, and the undo.
    const other = await connect(schema);
    const loaded = await other.loadMessages(session.id);
    expect(loaded.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(loaded[1]).toStrictEqual(stored[1]);
    expect(loaded[3]).toStrictEqual(stored[3]);
    const tool = loaded[2];
    const original = stored[2];
    if (tool?.role !== 'tool' || original?.role !== 'tool') throw new Error('message 3 is the edit result');
    const edit = original.result.artifacts[0] as { kind: string; change: Record<string, unknown> };
    expect(tool.result).toStrictEqual({ ...original.result, artifacts: [{ ...edit, change: { ...edit.change, undone: true } }] });
    expect(tool.result.artifacts[0]?.['hunks']).toEqual((turn[2] as NewToolMessage).result.artifacts[0]?.['hunks']);
    expect(await other.listFileChanges(session.id)).toEqual([expect.objectContaining({ changeId: 'turn-1-call-edit', path: 'src/greeting.ts', undone: true })]);
    expect(await other.getSession(session.id)).toMatchObject({ messageCount: 5, workspaceRoots: [ROOT] });
    expect(await tables(schema)).toEqual(['agent_mailbox', 'agent_runs', 'background_tasks', 'file_changes', 'messages', 'schema_migrations', 'session_plans', 'sessions', 'tool_calls']);
  });

  it('connects to an older schema version and migrates it, keeping its data', async () => {
    const schema = newSchema();
    const old = await connectPostgresSessionStore({ connectionString: TEST_DATABASE_URL, schema }, POSTGRES_MIGRATIONS.slice(0, 1));
    expect(old.schemaVersion).toBe(1);
    await old.createSession({ id: 'old', workspaceRoots: [ROOT] });
    const stored: StoredMessage[] = [];
    for (const message of completeToolTurn()) stored.push(await old.appendMessage('old', message));
    await old.close();
    expect(await recordedVersions(schema)).toEqual([1]);

    const store = await connect(schema);
    expect(store.schemaVersion).toBe(4);
    expect(await recordedVersions(schema)).toEqual([1, 2, 3, 4]);
    expect(await store.loadMessages('old')).toStrictEqual(stored);
    const index = await admin.query('SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [schema, 'sessions_by_update']);
    expect(index.rows).toHaveLength(1);
  });

  it('refuses a schema of a newer version with a clear message and leaves it untouched', async () => {
    const schema = newSchema();
    const store = await connect(schema);
    await store.createSession({ id: 'future', workspaceRoots: [ROOT] });
    await store.close();
    await admin.query(`INSERT INTO "${schema}".schema_migrations (version, description) VALUES (99, 'from the future')`);
    const before = JSON.stringify([await tables(schema), (await admin.query(`SELECT * FROM "${schema}".sessions`)).rows]);

    const error = await caught(() => PostgresSessionStore.connect({ connectionString: TEST_DATABASE_URL, schema }));
    expect(IncompatibleSchemaError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ foundVersion: 99, supportedVersion: 4 });
    expect((error as Error).message).toMatch(
      new RegExp(`schema ${schema} has version 99, written by a newer OpenWork; this version knows up to 4\\. It was left untouched`),
    );
    expect(JSON.stringify([await tables(schema), (await admin.query(`SELECT * FROM "${schema}".sessions`)).rows])).toBe(before);
    expect(await recordedVersions(schema)).toEqual([1, 2, 3, 4, 99]);
  });

  it("refuses a schema holding another program's tables of the same names", async () => {
    const schema = newSchema();
    await admin.query(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".sessions (user_name text)`);
    const error = await caught(() => PostgresSessionStore.connect({ connectionString: TEST_DATABASE_URL, schema }));
    expect(IncompatibleSchemaError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/already has tables named sessions that no OpenWork migration created; they were left untouched/);
    expect(await tables(schema)).toEqual(['sessions']);
  });

  it('migrates once when several hosts connect to a new schema at the same moment (advisory lock)', async () => {
    const schema = newSchema();
    const connected = await Promise.all(Array.from({ length: 6 }, () => connect(schema)));
    expect(connected.map((store) => store.schemaVersion)).toEqual([4, 4, 4, 4, 4, 4]);
    expect(await recordedVersions(schema)).toEqual([1, 2, 3, 4]);
    await connected[0]?.createSession({ id: 'ok', workspaceRoots: [ROOT] });
    expect((await connected[5]?.getSession('ok'))?.id).toBe('ok');
  });

  it('a connection lost in the middle of writing a message is a typed error and leaves no partial message', async () => {
    const schema = newSchema();
    const applicationName = `openwork-victim-${schema}`;
    const store = await connect(schema, { applicationName });
    await store.createSession({ id: 's', workspaceRoots: [ROOT] });
    const [user, assistant, editResult] = completeToolTurn() as [NewMessage, NewMessage, NewToolMessage];
    await store.appendMessage('s', user);
    await store.appendMessage('s', assistant);

    // Another transaction holds the change id, so the store's write stops after inserting the
    // message row, on the file_changes row; then its connection is killed.
    const blocker = await admin.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(
        `INSERT INTO "${schema}".file_changes (session_id, change_id, message_sequence, artifact_index, path, undone) VALUES ('s', 'turn-1-call-edit', 1, 0, 'x', false)`,
      );
      const write = store.appendMessage('s', editResult).then(
        () => new Error('the write was expected to fail'),
        (error: unknown) => error,
      );
      let victim: number | undefined;
      for (let attempt = 0; attempt < 600 && victim === undefined; attempt += 1) {
        const waiting = await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO%file_changes%'",
          [applicationName],
        );
        victim = waiting.rows[0]?.pid;
        if (victim === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(victim).toBeDefined();
      await admin.query('SELECT pg_terminate_backend($1)', [victim]);
      const error = await write;
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'store_unavailable', reason: 'connection_lost' });
      expect((error as Error).message).toMatch(/^the connection to the session database 127\.0\.0\.1:\d+\/\S+ was lost \(57P01: terminating connection/);
      expect((error as Error).message).not.toContain(new URL(TEST_DATABASE_URL).password);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }

    // Nothing of the message was kept: not the message, not its artifact, not the answered call.
    const messages = await admin.query(`SELECT sequence FROM "${schema}".messages WHERE session_id = 's' ORDER BY sequence`);
    expect(messages.rows).toEqual([{ sequence: 1 }, { sequence: 2 }]);
    expect((await admin.query(`SELECT * FROM "${schema}".file_changes`)).rows).toEqual([]);
    expect((await store.getSession('s'))?.messageCount).toBe(2);
    // The pool replaced the dead connection; the retry with the same message id is written once.
    const retried = await store.appendMessage('s', editResult);
    expect(retried.sequence).toBe(3);
    expect(await store.appendMessage('s', editResult)).toStrictEqual(retried);
    expect((await store.listFileChanges('s')).map((change) => change.changeId)).toEqual(['turn-1-call-edit']);
  });

  it('an unreachable server is StoreUnavailableError (unreachable) naming the server, not the password', async () => {
    const error = await caught(() =>
      PostgresSessionStore.connect({ connectionString: 'postgresql://someone:secret-password@127.0.0.1:1/nowhere', connectionTimeoutMs: 2000 }),
    );
    expect(StoreUnavailableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'unreachable' });
    expect((error as Error).message).toMatch(/^the session database 127\.0\.0\.1:1\/nowhere cannot be reached or refused the connection \(ECONNREFUSED/);
    expect((error as Error).message).not.toContain('secret-password');
  });

  it('refused credentials are StoreUnavailableError (unreachable)', async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.password = 'not-the-password';
    const error = await caught(() => PostgresSessionStore.connect({ connectionString: url.href }));
    expect(StoreUnavailableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'unreachable' });
    expect((error as Error).message).toMatch(/\(28P01: password authentication failed/);
    expect((error as Error).message).not.toContain('not-the-password');
  });

  it('rejects a schema name that is not plain, before connecting', async () => {
    const error = await caught(() => PostgresSessionStore.connect({ connectionString: TEST_DATABASE_URL, schema: 'x"; DROP TABLE y; --' }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/is not a plain schema name/);
  });
});
