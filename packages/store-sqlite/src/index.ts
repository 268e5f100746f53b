// The public surface of @openwork/store-sqlite. Adding a name here is a decision to publish it.

export { SqliteSessionStore } from './sqlite-session-store.js';
export {
  DEFAULT_BUSY_TIMEOUT_MS,
  SQLITE_SESSION_FILE_NAME,
  type SqliteSessionStoreOptions,
} from './sqlite-session-store-options.js';
export { SQLITE_MIGRATIONS, SQLITE_APPLICATION_ID, type SqliteMigration } from './sqlite-migrations.js';
