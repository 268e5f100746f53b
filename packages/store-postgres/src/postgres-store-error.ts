import { SessionStoreError, StoreCorruptError, StoreUnavailableError } from '@openwork/session-store';

const CONNECTION_LOST_SQLSTATES = new Set(['57P01', '57P02', '08000', '08003', '08006', '08007']);
const UNREACHABLE_SQLSTATES = new Set(['57P03', '08001', '08004', '28000', '28P01', '3D000', '53300']);
const CONNECTION_LOST_ERRNOS = new Set(['ECONNRESET', 'EPIPE']);
const UNREACHABLE_ERRNOS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether `error` means the connection it came from is gone (the client must not go back to the pool). */
export function isConnectionLoss(error: unknown): boolean {
  const { code, message } = facts(error);
  return (
    CONNECTION_LOST_SQLSTATES.has(code) ||
    CONNECTION_LOST_ERRNOS.has(code) ||
    /Connection terminated|connection error and is not queryable|Client was closed/i.test(message)
  );
}

/**
 * A node-postgres failure as the store's typed error, naming the server and the cause (typed store errors:
 * a lost connection mid-write, an unreachable server). Errors of the store itself pass through;
 * anything else (a bug) is returned unchanged.
 */
export function toPostgresStoreError(error: unknown, server: string): unknown {
  if (SessionStoreError.isInstance(error)) return error;
  const { code, message } = facts(error);
  const detail = code === '' ? message : `${code}: ${message}`;
  if (isConnectionLoss(error)) {
    return new StoreUnavailableError(
      'connection_lost',
      `the connection to the session database ${server} was lost (${detail}); nothing of an unfinished write was kept, ` +
        'but a commit in flight may have happened: retry (an append with the same message id is not stored twice)',
      { cause: error },
    );
  }
  if (UNREACHABLE_SQLSTATES.has(code) || UNREACHABLE_ERRNOS.has(code) || /timeout exceeded when trying to connect/i.test(message)) {
    return new StoreUnavailableError(
      'unreachable',
      `the session database ${server} cannot be reached or refused the connection (${detail}); check the connection string, that the server runs, and the credentials`,
      { cause: error },
    );
  }
  if (code === '42501') {
    return new StoreUnavailableError('permission_denied', `the session database ${server} refused an operation for lack of privileges (${detail}); grant the store's user rights on its schema`, {
      cause: error,
    });
  }
  if (code === '25006') return new StoreUnavailableError('read_only', `the session database ${server} is read-only (${detail})`, { cause: error });
  if (code === '53100') return new StoreUnavailableError('disk_full', `the session database ${server} is out of disk space (${detail})`, { cause: error });
  if (code === '55P03' || code === '40P01') {
    return new StoreUnavailableError('locked', `the session database ${server} could not take a lock (${detail}); retry`, { cause: error });
  }
  if (code === 'XX001' || code === 'XX002') {
    return new StoreCorruptError(`the session database ${server} reports damaged data (${detail}); repair it from a backup`, { cause: error });
  }
  if (code.startsWith('58')) return new StoreUnavailableError('io', `the session database ${server} failed to read or write (${detail})`, { cause: error });
  return error;
}

function facts(error: unknown): { code: string; message: string } {
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  const message = error instanceof Error ? error.message : String(error);
  return { code, message };
}
