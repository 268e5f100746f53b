import { mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { IncompatibleSchemaError, StoreUnavailableError } from '@openwork/session-store';
import { SQLITE_APPLICATION_ID, type SqliteMigration } from './sqlite-migrations.js';
import { toSqliteStoreError } from './sqlite-store-error.js';

/** What the header of a database file says about it. */
interface SchemaState {
  readonly applicationId: number;
  readonly version: number;
  readonly tableCount: number;
}

/**
 * Opens (creating if needed) the session database at `path` and brings its schema up to the last
 * of `migrations`. In order: create the parent directory; refuse a path that is not a regular
 * file; connect; refuse another program's database or a newer schema before anything is written
 * (the file stays untouched); switch to WAL; apply the missing migrations, each in its own
 * transaction, re-checked under the write lock so that several processes opening one file at
 * once migrate it once. Failures are typed errors naming the file.
 */
export async function openSqliteDatabase(
  path: string,
  migrations: readonly SqliteMigration[],
  busyTimeoutMs: number,
): Promise<BetterSqlite3.Database> {
  // Loaded when first used: importing the package does not load the native module.
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  let database: BetterSqlite3.Database | undefined;
  try {
    createParentDirectory(path);
    refuseNonFile(path);
    const opened = new Database(path, { timeout: busyTimeoutMs });
    database = opened;
    opened.pragma('foreign_keys = ON');
    const latest = migrations.at(-1)?.version ?? 0;
    refuseIncompatible(readSchemaState(opened), path, latest);
    enableWriteAheadLog(opened, path);
    opened.pragma('synchronous = FULL');
    applyMigrations(opened, migrations, path, latest);
    return opened;
  } catch (error) {
    database?.close();
    throw toSqliteStoreError(error, path, busyTimeoutMs);
  }
}

function createParentDirectory(path: string): void {
  // The OpenWork home holds the session database; only its owner reads it (architecture §3.2).
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
}

function refuseNonFile(path: string): void {
  let kind: string;
  try {
    const stat = statSync(path);
    if (stat.isFile()) return;
    kind = stat.isDirectory() ? 'a directory' : 'not a regular file';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new StoreUnavailableError('unreadable', `session database ${path} cannot be examined (${(error as Error).message})`, { cause: error });
  }
  throw new StoreUnavailableError('unreadable', `session database ${path} is ${kind}; give the store the path of a file (it is created when missing)`);
}

function readSchemaState(database: BetterSqlite3.Database): SchemaState {
  return {
    applicationId: database.pragma('application_id', { simple: true }) as number,
    version: database.pragma('user_version', { simple: true }) as number,
    tableCount: (database.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number }).n,
  };
}

/** A newer schema or another program's database is refused before anything is written. */
function refuseIncompatible(state: SchemaState, path: string, latest: number): void {
  const ours = state.applicationId === SQLITE_APPLICATION_ID;
  const fresh = state.applicationId === 0 && state.version === 0 && state.tableCount === 0;
  if (!ours && !fresh) {
    throw new IncompatibleSchemaError(
      `${path} is a SQLite database of another program (application id ${state.applicationId}, ${state.tableCount} tables), ` +
        'not an OpenWork session store; it was left untouched: give the store another path',
      null,
      latest,
    );
  }
  if (state.version > latest) {
    throw new IncompatibleSchemaError(
      `session database ${path} has schema version ${state.version}, written by a newer OpenWork; this version knows up to ${latest}. ` +
        'It was left untouched: upgrade @openwork/store-sqlite to open it',
      state.version,
      latest,
    );
  }
}

function enableWriteAheadLog(database: BetterSqlite3.Database, path: string): void {
  const mode = database.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') {
    throw new StoreUnavailableError('io', `session database ${path} could not switch to write-ahead logging (journal mode stays ${String(mode)})`);
  }
}

function applyMigrations(database: BetterSqlite3.Database, migrations: readonly SqliteMigration[], path: string, latest: number): void {
  for (const migration of migrations) {
    database
      .transaction(() => {
        // Under the write lock: another process may have migrated since we looked.
        const state = readSchemaState(database);
        refuseIncompatible(state, path, latest);
        if (state.version >= migration.version) return;
        if (state.version !== migration.version - 1) {
          throw new IncompatibleSchemaError(`session database ${path} is at schema version ${state.version}, expected ${migration.version - 1} before migration ${migration.version}`, state.version, latest);
        }
        database.exec(migration.sql);
        database.pragma(`application_id = ${SQLITE_APPLICATION_ID}`);
        database.pragma(`user_version = ${migration.version}`);
      })
      .immediate();
  }
}
