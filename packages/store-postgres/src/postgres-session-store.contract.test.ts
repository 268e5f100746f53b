import { describeSessionStoreContract } from '@openwork/session-store/contract';
import type { SessionStore } from '@openwork/session-store';
import { afterAll } from 'vitest';
import { PostgresSessionStore } from './index.js';
import { TEST_DATABASE_URL, adminPool, dropSchemas, postgresSkipReason, requireTestDatabaseUrl, throwawaySchema } from './test-support/postgres-test-database.js';

const schemas: string[] = [];
const skip = postgresSkipReason();
const admin = skip === undefined && TEST_DATABASE_URL !== '' ? adminPool() : undefined;

afterAll(async () => {
  await admin?.end();
});

function connect(schema: string, now: () => Date): Promise<PostgresSessionStore> {
  return PostgresSessionStore.connect({ connectionString: requireTestDatabaseUrl(), schema, now, maxConnections: 4 });
}

/** The contract on a real server: a peer is another pool (another host), reopen ends the pool and connects again. */
describeSessionStoreContract(
  'PostgreSQL',
  {
    async create({ now }) {
      const schema = throwawaySchema();
      schemas.push(schema);
      return connect(schema, now);
    },
    async openPeer(store: SessionStore, { now }) {
      return connect((store as PostgresSessionStore).schema, now);
    },
    async reopen(store: SessionStore, { now }) {
      await store.close();
      return connect((store as PostgresSessionStore).schema, now);
    },
    async cleanup() {
      if (admin !== undefined) await dropSchemas(admin, schemas.splice(0));
    },
  },
  skip === undefined ? {} : { skip },
);
