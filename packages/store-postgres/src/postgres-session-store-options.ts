import type { StoreClock } from '@openwork/session-store';

/** The schema the store keeps its tables in unless told otherwise. */
export const DEFAULT_POSTGRES_SCHEMA = 'openwork';

/** Options of `PostgresSessionStore.connect`. */
export interface PostgresSessionStoreOptions {
  /** `postgresql://user:password@host:port/database` (or the keyword/value form); e.g. `OPENWORK_DATABASE_URL`. */
  readonly connectionString: string;
  /**
   * The schema for the store's tables (`openwork` by default), created when missing: lower-case
   * letters, digits and `_`, at most 63 characters. Several stores may share a database with
   * different schemas.
   */
  readonly schema?: string;
  /** Most connections the pool opens (default 10). */
  readonly maxConnections?: number;
  /** How long to wait for a connection before failing as `unreachable` (default 10,000 ms). */
  readonly connectionTimeoutMs?: number;
  /** Shown in `pg_stat_activity.application_name` (default `openwork-session-store`). */
  readonly applicationName?: string;
  /** Source of `createdAt` / `updatedAt`; the system clock by default. */
  readonly now?: StoreClock;
}
