import { join } from 'node:path';
import { SqliteSessionStore } from '@openwork/store-sqlite';
import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../session/session.js';
import { AgentHostProcess, type AgentHostEvent } from '../test-support/agent-host-process.js';
import { ChildAgentModel } from '../test-support/child-agent-model.js';
import { createCoreFixture, type CoreFixture } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import type { AgentFinishedUpdate } from '../updates/session-update.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A machine whose sessions live in a real SQLite file under its OpenWork home. */
async function sqliteMachine(options: { root?: string; agentModels?: () => ChildAgentModel; leaseMs?: number } = {}): Promise<CoreFixture & { sqlite: SqliteSessionStore }> {
  const root = options.root;
  const probe = root === undefined ? await createCoreFixture() : undefined;
  // The fixture's folders first, then a store in them (the probe's in-memory runtime is closed at once).
  const base = root ?? probe?.root ?? '';
  if (probe !== undefined) await probe.runtime.close();
  const sqlite = await SqliteSessionStore.open({ path: join(base, 'sessions.sqlite') });
  const fixture = await createCoreFixture({
    root: base,
    store: sqlite,
    ...(options.agentModels === undefined ? {} : { agentModels: options.agentModels }),
    agents: { leaseMs: options.leaseMs ?? 1_000 },
  });
  cleanups.push(async () => {
    await fixture.runtime.close();
    await sqlite.close();
  });
  return Object.assign(fixture, { sqlite });
}

/**
 * An openwork process (SQLite file in a fresh fixture's folders) whose parent session delegated
 * one child that is blocked mid-round, killed with SIGKILL: what a restart finds.
 */
async function delegateHostKilledMidChild(): Promise<{ probe: CoreFixture; blocked: AgentHostEvent | undefined }> {
  const probe = await createCoreFixture();
  await probe.runtime.close();
  cleanups.push(() => import('node:fs/promises').then(({ rm }) => rm(probe.root, { recursive: true, force: true })));
  const host = new AgentHostProcess({
    store: 'sqlite',
    location: join(probe.root, 'sessions.sqlite'),
    mode: 'delegate',
    host: 'host-a',
    leaseMs: 1_000,
    openworkHome: probe.openworkHome,
    home: probe.home,
    workspace: probe.workspace,
    parentId: 'parent',
    children: 1,
  });
  cleanups.push(() => host.stop());
  const [blocked] = await host.waitFor('child-blocked');
  await host.kill();
  return { probe, blocked };
}

function finishedOn(session: Session): Promise<AgentFinishedUpdate> {
  return new Promise((resolve) => {
    const stop = session.subscribe((update) => {
      if (update.type === 'agent_finished') {
        stop();
        resolve(update);
      }
    });
  });
}

function mailboxTexts(model: ScriptedModel, request: number): string[] {
  return (model.requests[request]?.messages ?? []).flatMap((message) => (message.role === 'user' && message.text.startsWith('[mailbox]') ? [message.text] : []));
}

describe('sub-agents across a restart (SQLite file, new runtime)', () => {
  it('restart: a child that finished before the restart is delivered by the mailbox of the new runtime, once', async () => {
    const child = new ChildAgentModel(() => [say('found it in src/config.ts')]);
    const first = await sqliteMachine({ agentModels: () => child });
    cleanups.push(() => import('node:fs/promises').then(({ rm }) => rm(first.root, { recursive: true, force: true })));
    const parent = await first.session({ id: 'parent' });
    const done = finishedOn(parent);
    await parent.callTool('agent_send', { operations: [{ kind: 'delegate', role: 'explorer', prompt: 'find the config' }] });
    await done;
    await first.runtime.close();
    await first.sqlite.close();

    const second = await sqliteMachine({ root: first.root });
    const reopened = await second.runtime.openSession('parent');
    const model = new ScriptedModel([[say('thanks')], [say('ok')]]);
    await reopened.runTurn({ input: 'what did the explorer find?', model });
    expect(mailboxTexts(model, 0)).toStrictEqual([expect.stringMatching(/^\[mailbox\] Child agent \S+ finished \(round 1\)\.\nfound it in src\/config\.ts$/)]);
    await reopened.runTurn({ input: 'again', model });
    expect(mailboxTexts(model, 1)).toHaveLength(1);
  });

  it('restart: a child cut off by kill -9 is resumed from its stored messages by the new runtime', async () => {
    const { probe, blocked } = await delegateHostKilledMidChild();
    const agentId = String(blocked?.['agentId']);

    const child = new ChildAgentModel((_task, request) => [say(`resumed with ${request.messages.filter((message) => message.role === 'tool').length} stored tool result(s)`)]);
    const restarted = await sqliteMachine({ root: probe.root, agentModels: () => child });
    const parent = await restarted.runtime.openSession('parent');
    const resumed = await parent.callTool('agent_await', { agentIds: [agentId], timeoutMs: 600_000 });
    expect(ToolResult.text(resumed.result)).toMatch(/\): finished\nresumed with 1 stored tool result\(s\)$/);
    const run = await restarted.store.getAgentRun(agentId);
    expect(run).toMatchObject({ state: 'finished', attempts: 2, leaseOwner: null });
    // The round's prompt was stored once; the call that ran before the crash was not repeated.
    const messages = await restarted.store.loadMessages(agentId);
    expect(messages.filter((message) => message.role === 'user').map((message) => message.id)).toStrictEqual(['agent-round-1']);
    expect(messages.filter((message) => message.role === 'tool')).toHaveLength(1);
    expect(await restarted.store.listMailbox('parent')).toHaveLength(1);
  });

  it('restart: a cut-off child is marked interrupted with what it had when the new runtime cannot resume it', async () => {
    const { probe } = await delegateHostKilledMidChild();

    // No agentModels: the runtime cannot run children, but it never loses them.
    const restarted = await sqliteMachine({ root: probe.root });
    const parent = await restarted.runtime.openSession('parent');
    await expect.poll(async () => (await restarted.store.listMailbox('parent')).length, { timeout: 30_000 }).toBe(1);
    const [entry] = await restarted.store.listMailbox('parent');
    expect(entry).toMatchObject({ state: 'interrupted', result: { text: 'looked at the tree (host-a)' } });
    expect(entry?.result.error).toContain('no model for child agents');
    const model = new ScriptedModel([[say('I see')]]);
    await parent.runTurn({ input: 'status?', model });
    expect(mailboxTexts(model, 0)).toStrictEqual([expect.stringMatching(/^\[mailbox\] Child agent \S+ interrupted \(round 1\)\.\nerror: .*\nlooked at the tree \(host-a\)$/)]);
  });
});
