import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';

/** The throwaway database the PostgreSQL tests use (`.ci/run` creates one and exports it). */
export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';

const MISSING =
  'TEST_DATABASE_URL is not set: the PostgreSQL tests need a throwaway database ' +
  '(tooling/scripts/test-postgres.sh create prints one; .ci/run does this)';

/**
 * `describe` for tests that need PostgreSQL. Without TEST_DATABASE_URL they are skipped with the
 * reason in their name, except in CI (`CI=true`), where a missing database is a failure.
 */
export function describeWithPostgres(name: string, body: () => void): void {
  if (TEST_DATABASE_URL !== '') {
    describe(name, body);
  } else if (process.env['CI'] === 'true') {
    describe(name, () => {
      it('has a PostgreSQL test database', () => {
        throw new Error(`${MISSING}. In CI (CI=true) the PostgreSQL tests must run.`);
      });
    });
  } else {
    describe.skip(`${name} (skipped: ${MISSING})`, body);
  }
}

/** The reason to skip the contract suite, or `undefined` when it can run (see `describeWithPostgres`). */
export function postgresSkipReason(): string | undefined {
  if (TEST_DATABASE_URL !== '' || process.env['CI'] === 'true') return undefined;
  return MISSING;
}

/** TEST_DATABASE_URL, or an error saying that it is missing (in CI, where the tests must run). */
export function requireTestDatabaseUrl(): string {
  if (TEST_DATABASE_URL === '') throw new Error(`${MISSING}. In CI (CI=true) the PostgreSQL tests must run.`);
  return TEST_DATABASE_URL;
}

/** A fresh schema name per test, so tests never see each other's tables. */
export function throwawaySchema(): string {
  return `ow_test_${randomBytes(6).toString('hex')}`;
}

/** A pool for test bookkeeping (inspecting and dropping schemas, holding locks). */
export function adminPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 3, application_name: 'openwork-store-tests' });
  pool.on('error', () => undefined);
  return pool;
}

/** Drops `schemas` and everything in them. */
export async function dropSchemas(pool: pg.Pool, schemas: readonly string[]): Promise<void> {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
