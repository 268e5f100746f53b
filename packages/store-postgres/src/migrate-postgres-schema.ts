import type { PoolClient } from 'pg';
import { IncompatibleSchemaError } from '@openwork/session-store';
import type { PostgresMigration } from './postgres-migrations.js';

/** First key of the store's advisory locks ("OWSS"); the second is derived from the schema name. */
const ADVISORY_LOCK_CLASS = 0x4f575353;

const OWN_TABLES = ['sessions', 'messages', 'tool_calls', 'file_changes'];

/**
 * Brings `schema` up to the last of `migrations`, inside the caller's transaction. In order: take
 * the schema's advisory lock (concurrent processes and hosts wait here, then find the work done);
 * read the recorded version; refuse a newer schema, or tables of ours that no migration recorded
 * (another program's), before anything is written; create the schema and the version table if
 * missing; apply each missing step and record it.
 */
export async function migratePostgresSchema(
  client: PoolClient,
  schema: string,
  migrations: readonly PostgresMigration[],
  server: string,
): Promise<number> {
  const quoted = quoteIdentifier(schema);
  const latest = migrations.at(-1)?.version ?? 0;
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ADVISORY_LOCK_CLASS, schema]);

  const recorded = await readRecordedVersion(client, quoted);
  if (recorded === null) await refuseForeignTables(client, schema, server, latest);
  const current = recorded ?? 0;
  if (current > latest) {
    throw new IncompatibleSchemaError(
      `session database ${server} schema ${schema} has version ${current}, written by a newer OpenWork; this version knows up to ${latest}. ` +
        'It was left untouched: upgrade @openwork/store-postgres to use it',
      current,
      latest,
    );
  }
  if (current === latest) return current;

  await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    await client.query(migration.sql.replaceAll('{schema}', quoted));
    await client.query(`INSERT INTO ${quoted}.schema_migrations (version, description) VALUES ($1, $2)`, [migration.version, migration.description]);
  }
  return latest;
}

/** The highest recorded version, or `null` when the schema has no version table yet. */
async function readRecordedVersion(client: PoolClient, quoted: string): Promise<number | null> {
  const table = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [`${quoted}.schema_migrations`]);
  if (table.rows[0]?.found == null) return null;
  const version = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${quoted}.schema_migrations`);
  return version.rows[0]?.version ?? 0;
}

async function refuseForeignTables(client: PoolClient, schema: string, server: string, latest: number): Promise<void> {
  const found = await client.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name = ANY($2) ORDER BY table_name',
    [schema, OWN_TABLES],
  );
  if (found.rows.length > 0) {
    throw new IncompatibleSchemaError(
      `session database ${server} schema ${schema} already has tables named ${found.rows.map((row) => row.table_name).join(', ')} ` +
        'that no OpenWork migration created; they were left untouched: give the store another schema',
      null,
      latest,
    );
  }
}

/** `name` as a quoted SQL identifier (the schema name is checked before, this is belt and braces). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
