import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  IncompatibleSchemaError,
  SessionStoreError,
  StoreCorruptError,
  StoreUnavailableError,
  UndoneConflictError,
  type NewMessage,
  type StoredMessage,
} from '@openwork/session-store';
import { completeToolTurn } from '@openwork/session-store/contract';
import { SQLITE_MIGRATIONS, SQLITE_SESSION_FILE_NAME, SqliteSessionStore } from './index.js';
import { openSqliteSessionStore } from './sqlite-session-store.js';
import { compileSourcesForChild } from './test-support/compile-sources-for-child.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

const ROOT = '/home/me/project';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function temporaryHome(): Promise<string> {
  const directory = await createTemporaryDirectory();
  cleanups.push(directory.remove);
  return join(directory.path, '.openwork');
}

async function openStore(options: Parameters<typeof SqliteSessionStore.open>[0]): Promise<SqliteSessionStore> {
  const store = await SqliteSessionStore.open(options);
  cleanups.push(() => store.close());
  return store;
}

async function sha256(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

async function caught(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to fail');
}

async function appendTurn(store: SqliteSessionStore, sessionId: string, prefix = 'turn-1'): Promise<StoredMessage[]> {
  const stored: StoredMessage[] = [];
  for (const message of completeToolTurn(prefix)) stored.push(await store.appendMessage(sessionId, message));
  return stored;
}

describe('SqliteSessionStore', () => {
  it('sqlite_storage_round_trips_a_complete_tool_turn', async () => {
    const home = await temporaryHome();
    const first = await SqliteSessionStore.open({ openworkHome: home });
    expect(first.path).toBe(join(home, SQLITE_SESSION_FILE_NAME));
    const session = await first.createSession({ id: 'round-trip', workspaceRoots: [ROOT], mode: 'workspace-write', agentRole: 'default' });
    const turn: NewMessage[] = completeToolTurn();
    const stored: StoredMessage[] = [];
    for (const message of turn) stored.push(await first.appendMessage(session.id, message));
    await first.setUndone(session.id, { changeIds: ['turn-1-call-edit'], undone: true });
    await first.close();

    // From disk, through a new connection: every message, the tool result with its artifact, and the undo.
    const second = await openStore({ openworkHome: home });
    const loaded = await second.loadMessages(session.id);
    expect(loaded.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(loaded[1]).toStrictEqual(stored[1]);
    expect(loaded[3]).toStrictEqual(stored[3]);
    const tool = loaded[2];
    const original = stored[2];
    if (tool?.role !== 'tool' || original?.role !== 'tool') throw new Error('message 3 is the edit result');
    const edit = original.result.artifacts[0] as { kind: string; change: Record<string, unknown> };
    expect(tool.result).toStrictEqual({ ...original.result, artifacts: [{ ...edit, change: { ...edit.change, undone: true } }] });
    expect((tool.result.artifacts[0]?.['change'] as { afterContent?: string } | undefined)?.afterContent).toBe('export const greeting = "hello, world";\n');
    expect(await second.listFileChanges(session.id)).toEqual([expect.objectContaining({ changeId: 'turn-1-call-edit', path: 'src/greeting.ts', undone: true })]);
    expect(await second.getSession(session.id)).toMatchObject({ messageCount: 5, workspaceRoots: [ROOT] });

    const raw = new Database(second.path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.at(-1)?.version);
    raw.close();
  });

  it('creates the OpenWork home readable by its owner only', async () => {
    const home = await temporaryHome();
    await openStore({ openworkHome: home });
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    expect(await readdir(home)).toContain(SQLITE_SESSION_FILE_NAME);
  });

  describe('schema versions', () => {
    it('opens a database of an older schema version and migrates it, keeping its data', async () => {
      const home = await temporaryHome();
      const old = await openSqliteSessionStore({ openworkHome: home }, SQLITE_MIGRATIONS.slice(0, 1));
      expect(old.schemaVersion).toBe(1);
      await old.createSession({ id: 'old', workspaceRoots: [ROOT] });
      const stored = await appendTurn(old, 'old');
      await old.close();

      const store = await openStore({ openworkHome: home });
      expect(store.schemaVersion).toBe(SQLITE_MIGRATIONS.at(-1)?.version);
      expect(await store.loadMessages('old')).toStrictEqual(stored);
      const raw = new Database(store.path, { readonly: true });
      expect(raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'sessions_by_update'").get()).toEqual({ name: 'sessions_by_update' });
      raw.close();
    });

    it('refuses a database of a newer schema version with a clear message and leaves the file untouched', async () => {
      const home = await temporaryHome();
      const store = await SqliteSessionStore.open({ openworkHome: home });
      await store.createSession({ id: 'future', workspaceRoots: [ROOT] });
      await store.close();
      const raw = new Database(join(home, SQLITE_SESSION_FILE_NAME));
      raw.pragma('journal_mode = DELETE');
      raw.pragma('user_version = 99');
      raw.close();
      const path = join(home, SQLITE_SESSION_FILE_NAME);
      const before = await sha256(path);
      const filesBefore = (await readdir(home)).sort();

      const error = await caught(() => SqliteSessionStore.open({ openworkHome: home }));
      expect(IncompatibleSchemaError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'incompatible_schema', foundVersion: 99, supportedVersion: 4 });
      expect((error as Error).message).toBe(
        `session database ${path} has schema version 99, written by a newer OpenWork; this version knows up to 4. ` +
          'It was left untouched: upgrade @openwork/store-sqlite to open it',
      );
      expect(await sha256(path)).toBe(before);
      expect((await readdir(home)).sort()).toEqual(filesBefore);
      const check = new Database(path, { readonly: true });
      expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
      check.close();
    });

    it("refuses another program's SQLite database untouched", async () => {
      const home = await temporaryHome();
      await mkdir(home, { recursive: true });
      const path = join(home, SQLITE_SESSION_FILE_NAME);
      const raw = new Database(path);
      raw.exec("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ada');");
      raw.close();
      const before = await sha256(path);
      const error = await caught(() => SqliteSessionStore.open({ path }));
      expect(IncompatibleSchemaError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ foundVersion: null });
      expect((error as Error).message).toMatch(/is a SQLite database of another program .* not an OpenWork session store; it was left untouched/);
      expect(await sha256(path)).toBe(before);
    });

    it('migrates once when several processes open a new file at the same moment', async () => {
      const home = await temporaryHome();
      const path = join(home, SQLITE_SESSION_FILE_NAME);
      const outcomes = await runWorkers(Array.from({ length: 4 }, (_, writer) => ({ kind: 'append', path, sessionId: 'none', writer, count: 0 })));
      expect(outcomes).toEqual(Array.from({ length: 4 }, () => ({ ok: true })));
      const raw = new Database(path, { readonly: true });
      expect(raw.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.at(-1)?.version);
      expect(raw.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get()).toEqual({ n: 8 });
      raw.close();
    });
  });

  describe('faults give typed errors naming the cause', () => {
    it('a file that is not a database is StoreCorruptError, and it is left as it was', async () => {
      const home = await temporaryHome();
      await mkdir(home, { recursive: true });
      const path = join(home, SQLITE_SESSION_FILE_NAME);
      await writeFile(path, 'these are notes, not a database\n'.repeat(200));
      const before = await sha256(path);
      const error = await caught(() => SqliteSessionStore.open({ openworkHome: home }));
      expect(StoreCorruptError.isInstance(error)).toBe(true);
      expect(SessionStoreError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(`session database ${path} is damaged or is not a SQLite database (SQLITE_NOTADB`);
      expect((error as Error).message).toContain('move it aside');
      expect(await sha256(path)).toBe(before);
      expect(await readdir(home)).toEqual([SQLITE_SESSION_FILE_NAME]);
    });

    it('damaged pages are StoreCorruptError when read', async () => {
      const home = await temporaryHome();
      const store = await SqliteSessionStore.open({ openworkHome: home });
      await store.createSession({ id: 's', workspaceRoots: [ROOT] });
      for (let index = 0; index < 200; index += 1) await store.appendMessage('s', { role: 'user', text: `message ${index} `.repeat(40) });
      await store.close();
      const path = join(home, SQLITE_SESSION_FILE_NAME);
      const pageSize = 4096;
      const size = (await stat(path)).size;
      const handle = await open(path, 'r+');
      // Keep page 1 (header and schema), overwrite every other page with garbage.
      await handle.write(Buffer.alloc(size - pageSize, 0xa5), 0, size - pageSize, pageSize);
      await handle.close();
      const error = await caught(async () => {
        const damaged = await SqliteSessionStore.open({ openworkHome: home });
        try {
          await damaged.loadMessages('s');
        } finally {
          await damaged.close();
        }
      });
      expect(StoreCorruptError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(new RegExp(`session database ${path} is damaged .*SQLITE_CORRUPT`));
    });

    it('a path that cannot be opened as a file is StoreUnavailableError (unreadable)', async () => {
      const home = await temporaryHome();
      await mkdir(join(home, SQLITE_SESSION_FILE_NAME), { recursive: true });
      const error = await caught(() => SqliteSessionStore.open({ openworkHome: home }));
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'unreadable' });
      expect((error as Error).message).toBe(
        `session database ${join(home, SQLITE_SESSION_FILE_NAME)} is a directory; give the store the path of a file (it is created when missing)`,
      );
    });

    it('a database locked by another connection is StoreUnavailableError (locked); nothing partial is written, reads go on', async () => {
      const home = await temporaryHome();
      const store = await openStore({ openworkHome: home, busyTimeoutMs: 50 });
      await store.createSession({ id: 's', workspaceRoots: [ROOT] });
      await store.appendMessage('s', { role: 'user', text: 'before the lock' });
      const other = new Database(store.path);
      other.exec('BEGIN EXCLUSIVE');
      try {
        const error = await caught(() => store.appendMessage('s', completeToolTurn()[1] as NewMessage));
        expect(StoreUnavailableError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ code: 'store_unavailable', reason: 'locked' });
        expect((error as Error).message).toMatch(
          new RegExp(`session database ${store.path} is locked by another connection, which kept it for more than 50 ms \\(SQLITE_BUSY`),
        );
        // WAL: readers are not blocked by the writer.
        expect((await store.loadMessages('s')).map((message) => message.sequence)).toEqual([1]);
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
      const appended = await store.appendMessage('s', completeToolTurn()[1] as NewMessage);
      expect(appended.sequence).toBe(2);
    });
  });

  it('a failure after the message row is written rolls back the whole message (one transaction per message)', async () => {
    const home = await temporaryHome();
    const store = await openStore({ openworkHome: home });
    await store.createSession({ id: 's', workspaceRoots: [ROOT] });
    const [user, assistant, editResult] = completeToolTurn() as [NewMessage, NewMessage, NewMessage];
    await store.appendMessage('s', user);
    await store.appendMessage('s', assistant);
    // Make the write fail at its artifact, after the message row went in.
    const raw = new Database(store.path);
    raw.exec("CREATE TRIGGER fail_artifact BEFORE INSERT ON file_changes BEGIN SELECT RAISE(ABORT, 'artifact write failed'); END");
    const error = await caught(() => store.appendMessage('s', editResult));
    expect((error as Error).message).toBe('artifact write failed');
    expect(raw.prepare("SELECT sequence FROM messages WHERE session_id = 's' ORDER BY sequence").all()).toEqual([{ sequence: 1 }, { sequence: 2 }]);
    expect(raw.prepare('SELECT result_sequence FROM tool_calls WHERE tool_call_id = ?').get('turn-1-call-edit')).toEqual({ result_sequence: null });
    raw.exec('DROP TRIGGER fail_artifact');
    raw.close();
    expect((await store.getSession('s'))?.messageCount).toBe(2);
    expect((await store.appendMessage('s', editResult)).sequence).toBe(3);
    expect((await store.listFileChanges('s')).map((change) => change.changeId)).toEqual(['turn-1-call-edit']);
  });

  describe('several processes on one file', () => {
    it('8 writer processes on one session keep every message exactly once and in order', async () => {
      const home = await temporaryHome();
      const store = await openStore({ openworkHome: home });
      await store.createSession({ id: 'shared', workspaceRoots: [ROOT] });
      const writers = 8;
      const count = 40;
      const outcomes = await runWorkers(
        Array.from({ length: writers }, (_, writer) => ({ kind: 'append', path: store.path, sessionId: 'shared', writer, count })),
      );
      expect(outcomes).toEqual(Array.from({ length: writers }, () => ({ ok: true })));
      const messages = await store.loadMessages('shared');
      expect(messages.map((message) => message.sequence)).toEqual(Array.from({ length: writers * count }, (_, index) => index + 1));
      expect(new Set(messages.map((message) => message.id)).size).toBe(writers * count);
      for (let writer = 0; writer < writers; writer += 1) {
        expect(messages.filter((message) => message.id.startsWith(`w${writer}-`)).map((message) => message.id)).toEqual(
          Array.from({ length: count }, (_, index) => `w${writer}-m${index}`),
        );
      }
      expect((await store.getSession('shared'))?.messageCount).toBe(writers * count);
    });

    it('two processes undoing the same change at the same moment: exactly one wins, the other gets a conflict', async () => {
      const home = await temporaryHome();
      const store = await openStore({ openworkHome: home });
      await store.createSession({ id: 'shared', workspaceRoots: [ROOT] });
      const rounds = 3;
      for (let round = 1; round <= rounds; round += 1) await appendTurn(store, 'shared', `turn-${round}`);
      for (let round = 1; round <= rounds; round += 1) {
        const changeIds = [`turn-${round}-call-edit`];
        const outcomes = await runWorkers([0, 1].map(() => ({ kind: 'undo', path: store.path, sessionId: 'shared', changeIds, undone: true })));
        expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
        expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([expect.objectContaining({ ok: false, code: 'undone_conflict' })]);
      }
      expect((await store.listFileChanges('shared')).map((change) => change.undone)).toEqual([true, true, true]);
      const again = await caught(() => store.setUndone('shared', { changeIds: ['turn-1-call-edit'], undone: true }));
      expect(UndoneConflictError.isInstance(again)).toBe(true);
    });
  });
});

// ---- child processes -------------------------------------------------------------------------

let workerScript = '';

beforeAll(async () => {
  const directory = await createTemporaryDirectory();
  cleanupsAfterAll.push(directory.remove);
  workerScript = await compileSourcesForChild(directory.path, 'test-support/store-worker.ts');
});

const cleanupsAfterAll: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanupsAfterAll.splice(0)) await cleanup();
});

interface WorkerOutcome {
  readonly ok: boolean;
  readonly code?: string;
  readonly message?: string;
}

/** Starts one process per command, waits until all have opened the store, starts them together, returns their outcomes. */
async function runWorkers(commands: readonly object[]): Promise<WorkerOutcome[]> {
  const children = commands.map((command) => startWorker(command));
  await Promise.all(children.map((child) => child.ready));
  for (const child of children) child.process.stdin?.end('go\n');
  return Promise.all(children.map((child) => child.outcome));
}

function startWorker(command: object): { process: ChildProcess; ready: Promise<void>; outcome: Promise<WorkerOutcome> } {
  const child = spawn(process.execPath, [workerScript, JSON.stringify(command)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout! });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const outcome = new Promise<WorkerOutcome>((resolve, reject) => {
    let result: WorkerOutcome | undefined;
    lines.on('line', (line) => {
      if (line === 'ready') markReady();
      else result = JSON.parse(line) as WorkerOutcome;
    });
    child.on('close', (code) => {
      markReady();
      if (result !== undefined && code === 0) resolve(result);
      else reject(new Error(`store worker exited with ${code}: ${stderr}`));
    });
  });
  return { process: child, ready, outcome };
}

