import { SessionStoreError } from './session-store-error.js';

/**
 * Why the store could not be used right now:
 * - `locked`: another process holds the database and did not let go in time;
 * - `connection_lost`: the connection to the server broke (the operation may or may not have
 *   been committed; retrying an append with the same message id is safe);
 * - `unreachable`: no connection to the server could be made, or it refused the credentials;
 * - `unreadable`: the database file cannot be opened or read (permissions, not a file…);
 * - `read_only`: the database cannot be written;
 * - `permission_denied`: the database user lacks a privilege the store needs;
 * - `disk_full`: no space left for the database;
 * - `io`: any other input/output failure.
 */
export type StoreUnavailableReason =
  | 'locked'
  | 'connection_lost'
  | 'unreachable'
  | 'unreadable'
  | 'read_only'
  | 'permission_denied'
  | 'disk_full'
  | 'io';

/** The store's backing database could not be used; `reason` names the cause, `cause` holds the driver's error. */
export class StoreUnavailableError extends SessionStoreError {
  readonly reason: StoreUnavailableReason;

  constructor(reason: StoreUnavailableReason, message: string, options?: { cause?: unknown }) {
    super('store_unavailable', message, options);
    this.name = 'StoreUnavailableError';
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is StoreUnavailableError {
    return SessionStoreError.isInstance(error) && error.code === 'store_unavailable';
  }
}
