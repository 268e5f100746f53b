// The public surface of @openwork/store-postgres. Adding a name here is a decision to publish it.

export { PostgresSessionStore } from './postgres-session-store.js';
export { DEFAULT_POSTGRES_SCHEMA, type PostgresSessionStoreOptions } from './postgres-session-store-options.js';
export { POSTGRES_MIGRATIONS, type PostgresMigration } from './postgres-migrations.js';
