import type { StoreClock } from '@openwork/session-store';

/** The file name of the session database inside the OpenWork home. */
export const SQLITE_SESSION_FILE_NAME = 'sessions.sqlite';

/** How long a write waits for another process's write to finish before it fails as `locked`. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Options of `SqliteSessionStore.open`. */
export interface SqliteSessionStoreOptions {
  /**
   * The OpenWork home; the database is `<openworkHome>/sessions.sqlite`. Defaults to
   * `~/.openwork` (architecture §3.2: the home is hard-protected from tools).
   */
  readonly openworkHome?: string;
  /** The database file itself, instead of the one in the OpenWork home. */
  readonly path?: string;
  /** Milliseconds a write waits for another connection's write lock (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Source of `createdAt` / `updatedAt`; the system clock by default. */
  readonly now?: StoreClock;
}
