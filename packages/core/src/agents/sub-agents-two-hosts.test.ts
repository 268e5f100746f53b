import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { PostgresSessionStore } from '@openwork/store-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentHostProcess } from '../test-support/agent-host-process.js';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';
import { say, ScriptedModel } from '../test-support/scripted-model.js';

const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';
const MISSING = 'TEST_DATABASE_URL is not set: these tests need a throwaway PostgreSQL database (tooling/scripts/test-postgres.sh create prints one)';
const LEASE_MS = 1_500;

/** The little of `pg` the cleanup uses (core does not depend on pg). */
interface PgModule {
  readonly Client: new (options: { connectionString: string }) => { connect(): Promise<void>; query(sql: string): Promise<unknown>; end(): Promise<void> };
}

const schemas: string[] = [];
afterAll(async () => {
  if (schemas.length === 0) return;
  // pg is store-postgres's dependency: the test borrows it to drop its schemas.
  const pg = createRequire(import.meta.resolve('@openwork/store-postgres'))('pg') as PgModule;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

const suite = DATABASE_URL === '' && process.env['CI'] !== 'true' ? describe.skip : describe;

suite(`sub-agents on two hosts sharing PostgreSQL${DATABASE_URL === '' ? ` (skipped: ${MISSING})` : ''}`, () => {
  async function machine(): Promise<{ fixture: CoreFixture; schema: string; store: PostgresSessionStore; cleanup(): Promise<void> }> {
    if (DATABASE_URL === '') throw new Error(MISSING);
    const schema = `agents_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const store = await PostgresSessionStore.connect({ connectionString: DATABASE_URL, schema, maxConnections: 4 });
    const fixture = await createCoreFixture({ store });
    return { fixture, schema, store, cleanup: async () => (await fixture.cleanup(), await store.close()) };
  }

  function host(parts: { fixture: CoreFixture; schema: string }, name: string, mode: 'delegate' | 'serve', extra: { parentId?: string; children?: number } = {}): AgentHostProcess {
    return new AgentHostProcess({
      store: 'postgres',
      location: DATABASE_URL,
      schema: parts.schema,
      mode,
      host: name,
      leaseMs: LEASE_MS,
      openworkHome: parts.fixture.openworkHome,
      home: parts.fixture.home,
      workspace: parts.fixture.workspace,
      ...extra,
    });
  }

  it('two hosts: each free child run is executed by exactly one of two live hosts', async () => {
    const parts = await machine();
    const hosts = [host(parts, 'host-b1', 'serve'), host(parts, 'host-b2', 'serve')];
    try {
      await Promise.all(hosts.map((item) => item.waitFor('ready')));
      const parent = await parts.fixture.session({ id: 'parent' });
      const ids: string[] = [];
      for (let index = 0; index < 8; index += 1) {
        const { run } = await parts.store.createAgentRun({ parentSessionId: parent.id, role: 'explorer', prompt: `task ${index}`, depth: 1, child: { workspaceRoots: [parts.fixture.workspace], mode: 'read-only' } });
        ids.push(run.id);
      }
      await expect.poll(async () => (await parts.store.listAgentRuns(parent.id)).filter((run) => run.state === 'finished').length, { timeout: 60_000 }).toBe(8);
      const ran = hosts.flatMap((item) => item.events.filter((event) => event.event === 'ran').map((event) => String(event['agentId'])));
      expect([...ran].sort()).toStrictEqual([...ids].sort());
      const runs = await parts.store.listAgentRuns(parent.id);
      expect(runs.every((run) => run.attempts === 1 && run.leaseOwner === null)).toBe(true);
      expect((await parts.store.listMailbox(parent.id)).map((entry) => entry.agentId).sort()).toStrictEqual([...ids].sort());
    } finally {
      await Promise.all(hosts.map((item) => item.stop()));
      await parts.cleanup();
    }
  });

  it('two hosts: a host killed with kill -9 leaves its children to the other after the lease expires; the mailbox delivers each result once', async () => {
    const parts = await machine();
    const first = host(parts, 'host-a', 'delegate', { parentId: 'parent', children: 3 });
    let second: AgentHostProcess | undefined;
    try {
      const [delegated] = await first.waitFor('delegated');
      const ids = (delegated?.['ids'] as string[]).slice().sort();
      await first.waitFor('child-blocked', 3);
      second = host(parts, 'host-b', 'serve');
      await second.waitFor('ready');
      // While host-a lives and renews, host-b takes nothing.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
      expect((await parts.store.listAgentRuns('parent')).map((run) => [run.leaseOwner, run.state])).toStrictEqual(ids.map(() => ['host-a', 'running']));
      expect(second.events.filter((event) => event.event === 'ran')).toStrictEqual([]);

      await first.kill();
      await expect.poll(async () => (await parts.store.listAgentRuns('parent')).filter((run) => run.state === 'finished').length, { timeout: 60_000 }).toBe(3);
      const runs = await parts.store.listAgentRuns('parent');
      for (const run of runs) {
        expect(run).toMatchObject({ state: 'finished', attempts: 2, leaseOwner: null });
        // Resumed from its stored messages: the list call that ran on host-a is not repeated.
        expect(run.result?.text).toMatch(/^done by host-b; earlier tool results: \[".+"\]$/);
        const messages = await parts.store.loadMessages(run.id);
        expect(messages.filter((message) => message.role === 'tool')).toHaveLength(1);
      }
      expect(second.events.filter((event) => event.event === 'ran').map((event) => event['agentId']).sort()).toStrictEqual(ids);

      // The parent, opened by a third runtime, gets each result once.
      const parent = await parts.fixture.runtime.openSession('parent');
      const model = new ScriptedModel([[say('got them')], [say('nothing new')]]);
      await parent.runTurn({ input: 'results?', model });
      await parent.runTurn({ input: 'more?', model });
      const mailbox = (request: number): string[] =>
        (model.requests[request]?.messages ?? []).flatMap((message) => (message.role === 'user' && message.text.startsWith('[mailbox]') ? [message.text] : []));
      expect(mailbox(0)).toHaveLength(3);
      expect(mailbox(1)).toStrictEqual(mailbox(0));
      expect(await parts.store.listMailbox('parent', { undelivered: true })).toStrictEqual([]);
    } finally {
      await first.stop();
      await second?.stop();
      await parts.cleanup();
    }
  });
});
