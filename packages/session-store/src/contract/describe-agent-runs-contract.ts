import { describe, expect, it } from 'vitest';
import { AgentRunNotFoundError } from '../agent-run-not-found-error.js';
import type { NewAgentRun } from '../agent-run.js';
import { InvalidRecordError } from '../invalid-record-error.js';
import { SessionNotFoundError } from '../session-not-found-error.js';
import type { SessionStore } from '../session-store.js';
import { ROOT, type ContractStores } from './contract-stores.js';

const LONG = 3_600_000;

async function parentIn(store: SessionStore, id = 'parent'): Promise<string> {
  return (await store.createSession({ id, workspaceRoots: [ROOT] })).id;
}
function delegate(parentSessionId: string, extra: Partial<NewAgentRun> = {}): NewAgentRun {
  return { parentSessionId, role: 'explorer', prompt: 'Find where the config is read', depth: 1, child: { workspaceRoots: [ROOT], mode: 'read-only' }, ...extra };
}

/**
 * Sub-agent runs, their leases and the completion mailbox (architecture §4): part of the
 * one `SessionStore` contract suite, run unchanged against every store.
 */
export function describeAgentRunContract(stores: ContractStores): void {
  describe('agent runs and the mailbox', () => {
    describeAgentRunCreation(stores);
    describeAgentRunRounds(stores);
  });
}

/** Creating runs, idempotency, refusals, leases of one host at a time. */
function describeAgentRunCreation(stores: ContractStores): void {
  it('creates the child session and a queued run together, and keeps both across a reopen', async () => {
    const store = await stores.create();
    const parent = await parentIn(store);
    const { run, created } = await store.createAgentRun(delegate(parent, { id: 'child-1' }));
    expect(created).toBe(true);
    expect(run).toMatchObject({ id: 'child-1', parentSessionId: parent, role: 'explorer', state: 'queued', depth: 1, round: 1, attempts: 0, result: null, leaseOwner: null, idempotencyKey: null });
    expect(await store.getSession('child-1')).toMatchObject({ id: 'child-1', agentRole: 'explorer', mode: 'read-only', workspaceRoots: [ROOT] });
    const again = await stores.reopen(store);
    expect(await again.getAgentRun('child-1')).toStrictEqual(run);
    expect(await again.listAgentRuns(parent)).toStrictEqual([run]);
    expect(await again.getAgentRun(parent)).toBeUndefined();
  });

  it('idempotency: the same key under the same parent never creates a second child', async () => {
    const store = await stores.create();
    const parent = await parentIn(store);
    const other = await parentIn(store, 'other-parent');
    const first = await store.createAgentRun(delegate(parent, { idempotencyKey: 'k-1' }));
    const peer = await stores.peer(store);
    const repeats = await Promise.all([store.createAgentRun(delegate(parent, { idempotencyKey: 'k-1', prompt: 'something else' })), peer.createAgentRun(delegate(parent, { idempotencyKey: 'k-1' }))]);
    for (const repeat of repeats) expect(repeat).toStrictEqual({ run: first.run, created: false });
    expect((await store.listAgentRuns(parent)).map((run) => run.id)).toStrictEqual([first.run.id]);
    expect((await store.listSessions()).map((session) => session.id).sort()).toStrictEqual([first.run.id, other, parent].sort());
    const elsewhere = await store.createAgentRun(delegate(other, { idempotencyKey: 'k-1' }));
    expect(elsewhere.created).toBe(true);
  });

  it('refuses bad runs with a clear error and an unknown parent or agent, creating nothing', async () => {
    const store = await stores.create();
    const parent = await parentIn(store);
    await expect(store.createAgentRun(delegate('nobody'))).rejects.toSatisfy((error: unknown) => SessionNotFoundError.isInstance(error));
    await expect(store.createAgentRun(delegate(parent, { prompt: '  ' }))).rejects.toSatisfy((error: unknown) => InvalidRecordError.isInstance(error));
    await expect(store.createAgentRun(delegate(parent, { depth: 3 }))).rejects.toThrow(/depth must be 1 or 2/);
    await expect(store.claimAgentRun('ghost', { owner: 'host-a', leaseMs: LONG })).rejects.toSatisfy((error: unknown) => AgentRunNotFoundError.isInstance(error));
    await expect(store.claimAgentRun('ghost', { owner: 'host-a', leaseMs: 0 })).rejects.toThrow(/leaseMs/);
    expect(await store.listAgentRuns(parent)).toStrictEqual([]);
    expect(await store.listSessions()).toHaveLength(1);
  });

  it('gives a run to one host at a time: a live lease is refused to another host, an expired one is taken over', async () => {
    const store = await stores.create();
    const peer = await stores.peer(store);
    const parent = await parentIn(store);
    const { run } = await store.createAgentRun(delegate(parent));
    const held = await store.claimAgentRun(run.id, { owner: 'host-a', leaseMs: LONG });
    expect(held).toMatchObject({ state: 'running', leaseOwner: 'host-a', attempts: 1 });
    expect(await peer.claimAgentRun(run.id, { owner: 'host-b', leaseMs: LONG })).toBeUndefined();
    expect(await peer.claimAgentRuns({ owner: 'host-b', leaseMs: LONG, limit: 10 })).toStrictEqual([]);
    // A renewal by the holder is not a new attempt; a lease of 1 ms has run out at the next tick.
    expect(await store.claimAgentRun(run.id, { owner: 'host-a', leaseMs: 1 })).toMatchObject({ leaseOwner: 'host-a', attempts: 1 });
    const taken = await peer.claimAgentRuns({ owner: 'host-b', leaseMs: LONG, limit: 10 });
    expect(taken.map((item) => [item.id, item.leaseOwner, item.attempts])).toStrictEqual([[run.id, 'host-b', 2]]);
    // The old holder cannot finish what it lost.
    expect(await store.finishAgentRun(run.id, { owner: 'host-a', state: 'finished', result: { text: 'stale' } })).toBeUndefined();
    expect(await store.releaseAgentRun(run.id, 'host-a')).toBe(false);
    expect(await peer.releaseAgentRun(run.id, 'host-b')).toBe(true);
    expect(await store.claimAgentRun(run.id, { owner: 'host-a', leaseMs: LONG })).toMatchObject({ leaseOwner: 'host-a', attempts: 3 });
  });
}

/** Claims by two hosts, the mailbox, follow-up rounds, deletion with the parent. */
function describeAgentRunRounds(stores: ContractStores): void {
  it('hands each free run to exactly one of two hosts claiming at once', async () => {
    const store = await stores.create();
    const peer = await stores.peer(store);
    const parent = await parentIn(store);
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) ids.push((await store.createAgentRun(delegate(parent, { id: `child-${index}` }))).run.id);
    const [a, b] = await Promise.all([
      store.claimAgentRuns({ owner: 'host-a', leaseMs: LONG, limit: 10 }),
      peer.claimAgentRuns({ owner: 'host-b', leaseMs: LONG, limit: 10 }),
    ]);
    const all = [...a, ...b].map((run) => run.id).sort();
    expect(all).toStrictEqual([...ids].sort());
    const limited = await store.claimAgentRuns({ owner: 'host-c', leaseMs: LONG, limit: 1 });
    expect(limited).toStrictEqual([]);
  });

  it('mailbox: a finished round is one entry, in order, and a second finish of the round writes nothing', async () => {
    const store = await stores.create();
    const peer = await stores.peer(store);
    const parent = await parentIn(store);
    const first = (await store.createAgentRun(delegate(parent, { id: 'a' }))).run;
    const second = (await store.createAgentRun(delegate(parent, { id: 'b' }))).run;
    await store.claimAgentRun(first.id, { owner: 'host-a', leaseMs: LONG });
    const cancelled = await store.finishAgentRun(second.id, { owner: null, state: 'cancelled', result: { text: '', error: 'cancelled by the parent' } });
    expect(cancelled).toMatchObject({ state: 'cancelled', leaseOwner: null });
    const [x, y] = await Promise.all([
      store.finishAgentRun(first.id, { owner: 'host-a', state: 'finished', result: { text: 'config is read in src/config.ts' } }),
      peer.finishAgentRun(first.id, { owner: 'host-a', state: 'finished', result: { text: 'config is read in src/config.ts' } }),
    ]);
    expect([x, y].filter((run) => run !== undefined)).toHaveLength(1);
    expect(await store.finishAgentRun(first.id, { owner: null, state: 'failed', result: { text: 'late' } })).toBeUndefined();
    const again = await stores.reopen(store);
    const entries = await again.listMailbox(parent);
    expect(entries.map((entry) => [entry.sequence, entry.agentId, entry.round, entry.state, entry.result.text, entry.delivered])).toStrictEqual([
      [1, 'b', 1, 'cancelled', '', false],
      [2, 'a', 1, 'finished', 'config is read in src/config.ts', false],
    ]);
    expect(entries[0]?.result.error).toBe('cancelled by the parent');
    const otherPeer = await stores.peer(again);
    const marks = await Promise.all([again.markMailboxDelivered(parent, [1, 2]), otherPeer.markMailboxDelivered(parent, [2, 1])]);
    expect(marks.flat().sort()).toStrictEqual([1, 2]);
    expect(await again.listMailbox(parent, { undelivered: true })).toStrictEqual([]);
    expect((await again.listMailbox(parent)).every((entry) => entry.delivered)).toBe(true);
  });

  it('starts the next round with a follow-up message only after the round ended', async () => {
    const store = await stores.create();
    const parent = await parentIn(store);
    const { run } = await store.createAgentRun(delegate(parent));
    await store.claimAgentRun(run.id, { owner: 'host-a', leaseMs: LONG });
    expect(await store.reopenAgentRun(run.id, 'and the tests?')).toBeUndefined();
    await store.finishAgentRun(run.id, { owner: 'host-a', state: 'finished', result: { text: 'one' } });
    const next = await store.reopenAgentRun(run.id, 'and the tests?');
    expect(next).toMatchObject({ state: 'queued', round: 2, prompt: 'and the tests?', result: null, attempts: 0 });
    await store.claimAgentRun(run.id, { owner: 'host-a', leaseMs: LONG });
    await store.finishAgentRun(run.id, { owner: 'host-a', state: 'finished', result: { text: 'two' } });
    expect((await store.listMailbox(parent)).map((entry) => [entry.round, entry.result.text])).toStrictEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
  });

  it('deletes runs and the mailbox with the parent, and a run with its child session', async () => {
    const store = await stores.create();
    const parent = await parentIn(store);
    const one = (await store.createAgentRun(delegate(parent, { id: 'one' }))).run;
    const two = (await store.createAgentRun(delegate(parent, { id: 'two' }))).run;
    await store.finishAgentRun(one.id, { owner: null, state: 'cancelled', result: { text: '' } });
    expect(await store.deleteSession(two.id)).toBe(true);
    expect(await store.getAgentRun(two.id)).toBeUndefined();
    expect(await store.deleteSession(parent)).toBe(true);
    expect(await store.getAgentRun(one.id)).toBeUndefined();
    await parentIn(store);
    expect(await store.listMailbox(parent)).toStrictEqual([]);
  });
}
