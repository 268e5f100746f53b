import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReadmeExample } from '@openwork/tooling/readme-example';
import { afterAll, expect, it } from 'vitest';
import { TEST_DATABASE_URL, adminPool, describeWithPostgres } from './test-support/postgres-test-database.js';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

describeWithPostgres('README', () => {
  afterAll(async () => {
    // The example uses the default schema of the throwaway database; leave nothing behind.
    const admin = adminPool();
    await admin.query('DROP SCHEMA IF EXISTS openwork CASCADE');
    await admin.end();
  });

  it('the example runs against a real server (TEST_DATABASE_URL as OPENWORK_DATABASE_URL) and prints what it claims', async () => {
    const printed = await runReadmeExample(packageDirectory, { OPENWORK_DATABASE_URL: TEST_DATABASE_URL });
    expect(printed).toEqual(['openwork 4', '["call-1 NOTES.md"]', '1 true']);
  });
});
