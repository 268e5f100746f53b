import { SessionStoreError, StoreCorruptError, StoreUnavailableError } from '@openwork/session-store';

/**
 * A better-sqlite3 failure as the store's typed error, naming the file and the cause (typed store errors:
 * corrupt or unreadable file, locked database). Errors of the store itself pass through; anything
 * else (a bug) is returned unchanged.
 */
export function toSqliteStoreError(error: unknown, path: string, busyTimeoutMs: number): unknown {
  if (SessionStoreError.isInstance(error)) return error;
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  const detail = `${code}: ${error instanceof Error ? error.message : String(error)}`;
  const where = `session database ${path}`;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreUnavailableError(
      'locked',
      `${where} is locked by another connection, which kept it for more than ${busyTimeoutMs} ms (${detail}); ` +
        'retry when the other process is done, or open the store with a larger busyTimeoutMs',
      { cause: error },
    );
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new StoreCorruptError(
      `${where} is damaged or is not a SQLite database (${detail}); it was left as it is: move it aside to start with an empty store, or restore it from a backup`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH') {
    return new StoreUnavailableError(
      'unreadable',
      `${where} cannot be opened (${detail}); check that it is a regular file that this user may read and write, in a directory it may write`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new StoreUnavailableError('read_only', `${where} cannot be written (${detail}); check the permissions of the file and its directory`, {
      cause: error,
    });
  }
  if (code === 'SQLITE_FULL') {
    return new StoreUnavailableError('disk_full', `${where} cannot grow: the disk is full (${detail})`, { cause: error });
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new StoreUnavailableError('io', `${where} could not be read or written (${detail})`, { cause: error });
  }
  return error;
}
