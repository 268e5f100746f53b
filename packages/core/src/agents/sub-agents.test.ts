import { ToolResult } from '@openwork/tools-contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalCard, ApprovalContext } from '../call/approval.js';
import type { LanguageModelRequest } from '../model/language-model.js';
import type { Session } from '../session/session.js';
import { ChildAgentModel, gate, untilCancelled } from '../test-support/child-agent-model.js';
import { createCoreFixture, recordUpdates, type CoreFixture, type CoreFixtureOptions } from '../test-support/core-fixture.js';
import { callTool, say, ScriptedModel } from '../test-support/scripted-model.js';
import type { AgentFinishedUpdate, SessionUpdate } from '../updates/session-update.js';

const fixtures: CoreFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});

async function machine(options: CoreFixtureOptions): Promise<CoreFixture> {
  const fixture = await createCoreFixture(options);
  fixtures.push(fixture);
  return fixture;
}

/** The text of the last tool result the model was sent. */
function lastToolText(request: LanguageModelRequest): string {
  const tool = request.messages.findLast((message) => message.role === 'tool');
  return tool?.role === 'tool' ? tool.text : '';
}

/** The agent ids of the receipts in `text`, in order. */
function agentIds(text: string): string[] {
  return [...text.matchAll(/agent (\S+) \((?:explorer|default)\)/g)].map((match) => match[1] ?? '');
}

/** Resolves when `count` agent_finished updates have reached `updates`. */
async function finished(session: Session, count: number): Promise<AgentFinishedUpdate[]> {
  const seen: AgentFinishedUpdate[] = [];
  return new Promise((resolve) => {
    const stop = session.subscribe((update: SessionUpdate) => {
      if (update.type !== 'agent_finished') return;
      seen.push(update);
      if (seen.length === count) {
        stop();
        resolve(seen);
      }
    });
  });
}

function delegate(prompt: string, role: 'explorer' | 'default' = 'explorer', idempotencyKey?: string) {
  return { kind: 'delegate', role, prompt, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) };
}

describe('sub-agents', () => {
  it('agent_send delegate → agent_await → the child\'s final text, and the result is not delivered a second time', async () => {
    const child = new ChildAgentModel((task) => [say(`answer to: ${task}`)]);
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    const updates = recordUpdates(parent);
    let awaited = '';
    const model = new ScriptedModel([
      [callTool('c1', 'agent_send', { operations: [delegate('where is the config read?')] })],
      (request) => [callTool('c2', 'agent_await', { agentIds: agentIds(lastToolText(request)), timeoutMs: 600_000 })],
      (request) => {
        awaited = lastToolText(request);
        return [say('the config is read in one place')];
      },
      [say('nothing new')],
    ]);
    const outcome = await parent.runTurn({ input: 'explore', model });
    expect(outcome.status).toBe('completed');
    const receipt = ToolResult.text((outcome.messages[2] as { result: ToolResult }).result);
    expect(receipt).toMatch(/^1\. delegate: agent \S+ \(explorer\) is queued — accepted and stored/);
    expect(awaited).toMatch(/^1 of 1 ready\.\n\n## \S+ \(explorer, round 1\): finished\nanswer to: where is the config read\?$/);
    const [id] = agentIds(receipt);
    const run = await fixture.store.getAgentRun(id ?? '');
    expect(run).toMatchObject({ parentSessionId: parent.id, role: 'explorer', state: 'finished', depth: 1, result: { text: 'answer to: where is the config read?' } });
    // The child is its own session on the same workspace, read-only as an explorer, with its own spill folder.
    const childSession = await fixture.runtime.openSession(id ?? '');
    expect(childSession).toMatchObject({ role: 'explorer', mode: 'read-only', workspaceRoots: [fixture.workspace], agentDepth: 1 });
    expect(childSession.spillDirectory).not.toBe(parent.spillDirectory);
    expect(childSession.toolIds).not.toContain('agent_send');
    expect(updates.filter((update) => update.type === 'agent_finished')).toMatchObject([{ agentId: id, state: 'finished', round: 1 }]);
    // agent_await showed the result: the mailbox does not repeat it.
    const next = await parent.runTurn({ input: 'anything else?', model });
    expect(next.status).toBe('completed');
    expect(model.requests[3]?.messages.some((message) => message.role === 'user' && message.text.startsWith('[mailbox]'))).toBe(false);
  });

  it('mailbox: results arrive once, in the order the children finished, without an agent_await', async () => {
    const slow = gate();
    const child = new ChildAgentModel(async (task) => {
      if (task === 'slow task') await slow.opened;
      return [say(`done: ${task}`)];
    });
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    const model = new ScriptedModel([
      [callTool('c1', 'agent_send', { operations: [delegate('slow task'), delegate('quick task', 'default')] })],
      [say('I will do other work meanwhile')],
      [say('read the results')],
      [say('still here')],
    ]);
    const both = finished(parent, 2);
    const quick = finished(parent, 1);
    await parent.runTurn({ input: 'split the work', model });
    expect((await quick)[0]?.result.text).toBe('done: quick task');
    slow.open();
    await both;
    await parent.runTurn({ input: 'what did they find?', model });
    const mailbox = (model.requests[2]?.messages ?? []).filter((message) => message.role === 'user' && message.text.startsWith('[mailbox]'));
    expect(mailbox.map((message) => (message.role === 'user' ? message.text.split('\n')[1] : ''))).toStrictEqual(['done: quick task', 'done: slow task']);
    expect(mailbox[0]?.role === 'user' && mailbox[0].text).toMatch(/^\[mailbox\] Child agent \S+ finished \(round 1\)\./);
    await parent.runTurn({ input: 'and now?', model });
    const again = (model.requests[3]?.messages ?? []).filter((message) => message.role === 'user' && message.text.startsWith('[mailbox]'));
    expect(again).toHaveLength(2); // the same two stored messages, none added
    expect(await fixture.store.listMailbox(parent.id, { undelivered: true })).toStrictEqual([]);
  });

  it('agent_await with timeoutMs 0 reads the state once and returns before the child is ready', async () => {
    const release = gate();
    const child = new ChildAgentModel(async () => {
      await release.opened;
      return [say('late answer')];
    });
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    const receipt = await parent.callTool('agent_send', { operations: [delegate('wait for me')] });
    const [id] = agentIds(ToolResult.text(receipt.result));
    const polled = await parent.callTool('agent_await', { agentIds: [id], timeoutMs: 0 });
    expect(ToolResult.text(polled.result)).toMatch(/^0 of 1 ready after 0 ms; call agent_await again later, or go on with other work\.\n\n## \S+ \(explorer, round 1\): (queued|running) — not ready yet$/);
    const done = finished(parent, 1);
    release.open();
    await done;
    const ready = await parent.callTool('agent_await', { agentIds: [id], timeoutMs: 0 });
    expect(ToolResult.text(ready.result)).toContain('late answer');
  });

  it('agent_send: one bad operation among good ones fails alone; bad input changes nothing', async () => {
    const child = new ChildAgentModel(() => [say('ok')]);
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    const done = finished(parent, 1);
    const sent = await parent.callTool('agent_send', {
      operations: [delegate('good one'), { kind: 'message', agentId: 'nobody', text: 'hi' }, { kind: 'cancel', agentId: 'nobody' }],
    });
    expect(sent.result.status).toBe('succeeded');
    const lines = ToolResult.text(sent.result).split('\n');
    expect(lines[0]).toMatch(/^1\. delegate: agent \S+ \(explorer\) is queued/);
    expect(lines[1]).toBe('2. message: error — no child agent "nobody" of this session; agent_list shows the ids');
    expect(lines[2]).toBe('3. cancel: error — no child agent "nobody" of this session; agent_list shows the ids');
    await done;
    const tooMany = await parent.callTool('agent_send', { operations: Array.from({ length: 33 }, () => delegate('x')) });
    expect(tooMany.result.error?.code).toBe('invalid_arguments');
    const none = await parent.callTool('agent_send', { operations: [] });
    expect(none.result.error?.code).toBe('invalid_arguments');
    const longWait = await parent.callTool('agent_await', { agentIds: ['a'], timeoutMs: 600_001 });
    expect(longWait.result.error?.code).toBe('invalid_arguments');
    const allBad = await parent.callTool('agent_send', { operations: [{ kind: 'cancel', agentId: 'nobody' }] });
    expect(allBad.result.error?.code).toBe('invalid_arguments');
    expect(await fixture.store.listAgentRuns(parent.id)).toHaveLength(1);
  });

  it('agent_list shows the session\'s children: id, role, state, round, age and the start of the task', async () => {
    const release = gate();
    const child = new ChildAgentModel(async (task) => {
      if (task.startsWith('slow')) await release.opened;
      return [say('ok')];
    });
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    expect(ToolResult.text((await parent.callTool('agent_list', {})).result)).toBe('No child agents yet; start one with agent_send.');
    const long = `slow ${'x'.repeat(150)}`;
    const sent = await parent.callTool('agent_send', { operations: [delegate('quick one'), delegate(long, 'default')] });
    const ids = agentIds(ToolResult.text(sent.result));
    await parent.callTool('agent_await', { agentIds: [ids[0]], timeoutMs: 600_000 });
    const lines = ToolResult.text((await parent.callTool('agent_list', {})).result).split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${ids[0]} {2}explorer {2}finished {2}round 1 {2}\\d+s old {2}"quick one"$`));
    expect(lines[1]).toMatch(new RegExp(`^${ids[1]} {2}default {2}(queued|running) {2}round 1 {2}\\d+s old {2}"slow x{95}…"$`));
    release.open();
    await parent.callTool('agent_await', { agentIds: ids, timeoutMs: 600_000 });
  });

  it('agent_send idempotency: the same key never starts a second child', async () => {
    const child = new ChildAgentModel(() => [say('once')]);
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    const first = await parent.callTool('agent_send', { operations: [delegate('index the repo', 'explorer', 'index-1')] });
    const second = await parent.callTool('agent_send', { operations: [delegate('index the repo', 'explorer', 'index-1')] });
    expect(ToolResult.text(second.result)).toContain('already delegated with idempotencyKey "index-1": no second child was started');
    expect(agentIds(ToolResult.text(second.result))).toStrictEqual(agentIds(ToolResult.text(first.result)));
    expect(await fixture.store.listAgentRuns(parent.id)).toHaveLength(1);
    await parent.callTool('agent_await', { agentIds: agentIds(ToolResult.text(first.result)), timeoutMs: 600_000 });
    expect(child.requests).toHaveLength(1);
  });

  it('agent_send cancel stops a running child; its round ends cancelled, once, in the mailbox', async () => {
    const started = gate();
    const child = new ChildAgentModel(async (_task, _request, signal) => {
      started.open();
      return untilCancelled(signal);
    });
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    const sent = await parent.callTool('agent_send', { operations: [delegate('never ends')] });
    const [id] = agentIds(ToolResult.text(sent.result));
    await started.opened;
    const cancelled = await parent.callTool('agent_send', { operations: [{ kind: 'cancel', agentId: id }] });
    expect(ToolResult.text(cancelled.result)).toMatch(/^1\. cancel: agent \S+ \(explorer\) is cancelled — cancelled/);
    expect(await fixture.store.getAgentRun(id ?? '')).toMatchObject({ state: 'cancelled', result: { error: 'cancelled by the parent' } });
    expect((await fixture.store.listMailbox(parent.id)).map((entry) => entry.state)).toStrictEqual(['cancelled']);
    const again = await parent.callTool('agent_send', { operations: [{ kind: 'cancel', agentId: id }] });
    expect(ToolResult.text(again.result)).toContain('it had already ended (cancelled); nothing to cancel');
  });

  it('agent_send message starts the next round of an ended child on its own conversation', async () => {
    const child = new ChildAgentModel((_task, request) => [say(`seen ${request.messages.filter((message) => message.role === 'user').length} messages`)]);
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    const sent = await parent.callTool('agent_send', { operations: [delegate('first')] });
    const ids = agentIds(ToolResult.text(sent.result));
    await parent.callTool('agent_await', { agentIds: ids, timeoutMs: 600_000 });
    const followUp = await parent.callTool('agent_send', { operations: [{ kind: 'message', agentId: ids[0], text: 'and second?' }] });
    expect(ToolResult.text(followUp.result)).toContain('round 2 starts with your message');
    const awaited = await parent.callTool('agent_await', { agentIds: ids, timeoutMs: 600_000 });
    expect(ToolResult.text(awaited.result)).toContain('(explorer, round 2): finished\nseen 2 messages');
  });

  it('limits: at most maxRunning children run at once; the others wait queued', async () => {
    const release = gate();
    let running = 0;
    let most = 0;
    const child = new ChildAgentModel(async () => {
      running += 1;
      most = Math.max(most, running);
      await release.opened;
      running -= 1;
      return [say('ok')];
    });
    const fixture = await machine({ agentModels: () => child, agents: { maxRunning: 2 } });
    const parent = await fixture.session();
    const sent = await parent.callTool('agent_send', { operations: [delegate('a'), delegate('b'), delegate('c'), delegate('d')] });
    const ids = agentIds(ToolResult.text(sent.result));
    await expect.poll(() => running).toBe(2);
    expect((await fixture.store.listAgentRuns(parent.id)).filter((run) => run.state === 'queued')).toHaveLength(2);
    release.open();
    const awaited = await parent.callTool('agent_await', { agentIds: ids, timeoutMs: 600_000 });
    expect(ToolResult.text(awaited.result)).toMatch(/^4 of 4 ready\./);
    expect(most).toBe(2);
  });

  it('limits: a parent has at most 64 children that have not ended; more delegates fail one by one', async () => {
    const child = new ChildAgentModel(async (_task, _request, signal) => untilCancelled(signal));
    const fixture = await machine({ agentModels: () => child, agents: { maxRunning: 1 } });
    const parent = await fixture.session();
    for (let batch = 0; batch < 2; batch += 1) {
      const sent = await parent.callTool('agent_send', { operations: Array.from({ length: 32 }, (_, index) => delegate(`task ${batch}-${index}`)) });
      expect(sent.result.status).toBe('succeeded');
    }
    const over = await parent.callTool('agent_send', { operations: [delegate('one too many')] });
    expect(over.result.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(over.result)).toContain('already has 64 children that have not ended (the limit is 64); agent_await or cancel some first');
    expect(await fixture.store.listAgentRuns(parent.id)).toHaveLength(64);
  });

  it('limits: depth — a child may delegate only when allowed, a grandchild never', async () => {
    const child = new ChildAgentModel(() => [say('ok')]);
    const strict = await machine({ agentModels: () => child });
    const root = await strict.session();
    const sent = await root.callTool('agent_send', { operations: [delegate('x', 'default')] });
    const [id] = agentIds(ToolResult.text(sent.result));
    expect((await strict.runtime.openSession(id ?? '')).toolIds).not.toContain('agent_send');

    const open = await machine({ agentModels: () => child, agents: { childrenMayDelegate: true } });
    const top = await open.session();
    const first = agentIds(ToolResult.text((await top.callTool('agent_send', { operations: [delegate('x', 'default')] })).result))[0] ?? '';
    await top.callTool('agent_await', { agentIds: [first], timeoutMs: 600_000 });
    const middle = await open.runtime.openSession(first);
    expect(middle.toolIds).toContain('agent_send');
    const second = agentIds(ToolResult.text((await middle.callTool('agent_send', { operations: [delegate('y', 'default')] })).result))[0] ?? '';
    expect(await open.store.getAgentRun(second)).toMatchObject({ depth: 2, parentSessionId: first });
    await middle.callTool('agent_await', { agentIds: [second], timeoutMs: 600_000 });
    const bottom = await open.runtime.openSession(second);
    expect(bottom.agentDepth).toBe(2);
    expect(bottom.toolIds).not.toContain('agent_send');
    expect(bottom.toolIds).toContain('update_plan');
  });

  it('without a model source the sub-agent tools are not offered, and the definitions say so', async () => {
    const fixture = await machine({});
    const session = await fixture.session();
    expect(session.toolIds.filter((id) => id.startsWith('agent_') || id === 'update_plan')).toStrictEqual(['update_plan']);
    expect(fixture.runtime.toolDefinitions().map((definition) => definition.id)).not.toContain('agent_send');
    expect(fixture.runtime.subAgents).toMatchObject({ available: false, reason: expect.stringContaining('pass agentModels to createRuntime') });
    const sent = await session.callTool('agent_send', { operations: [delegate('x')] });
    expect(sent.result.error?.code).toBe('tool_not_found');
    const withModels = await machine({ agentModels: () => new ChildAgentModel(() => [say('ok')]) });
    expect(withModels.runtime.toolDefinitions().map((definition) => definition.id).slice(-4)).toStrictEqual(['update_plan', 'agent_send', 'agent_await', 'agent_list']);
  });

  it('deleting the parent cancels and deletes its children', async () => {
    const started = gate();
    let aborted = false;
    const child = new ChildAgentModel(async (_task, _request, signal) => {
      started.open();
      signal.addEventListener('abort', () => (aborted = true));
      return untilCancelled(signal);
    });
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    const [id] = agentIds(ToolResult.text((await parent.callTool('agent_send', { operations: [delegate('forever')] })).result));
    await started.opened;
    expect(await fixture.runtime.deleteSession(parent.id)).toBe(true);
    expect(aborted).toBe(true);
    expect(await fixture.store.getSession(id ?? '')).toBeUndefined();
    expect(await fixture.store.getAgentRun(id ?? '')).toBeUndefined();
  });

  it('a child\'s approvals go through the same approver, with the child named', async () => {
    const cards: [ApprovalCard, ApprovalContext][] = [];
    const child = new ChildAgentModel((_task, request) =>
      request.messages.some((message) => message.role === 'tool') ? [say('asked')] : [callTool('b1', 'bash', { command: 'git reset --hard' })],
    );
    const fixture = await machine({ agentModels: () => child });
    const parent = await fixture.session();
    const approver = (card: ApprovalCard, context: ApprovalContext): boolean => {
      cards.push([card, context]);
      return false;
    };
    const model = new ScriptedModel([
      [callTool('c1', 'agent_send', { operations: [delegate('reset the repo', 'default')] })],
      (request) => [callTool('c2', 'agent_await', { agentIds: agentIds(lastToolText(request)), timeoutMs: 600_000 })],
      [say('done')],
    ]);
    await parent.runTurn({ input: 'go', model, approver });
    expect(cards).toHaveLength(1);
    const [card, context] = cards[0] ?? [];
    expect(card).toMatchObject({ toolId: 'bash', reasons: ['danger'] });
    expect(context?.agent).toMatchObject({ parentSessionId: parent.id, role: 'default', depth: 1, prompt: 'reset the repo' });
    expect(context?.sessionId).toBe(context?.agent?.agentId);
  });
});

describe('update_plan', () => {
  it('update_plan stores the plan with the session and publishes plan_updated', async () => {
    const fixture = await machine({});
    const session = await fixture.session();
    const updates = recordUpdates(session);
    const plan = [
      { step: 'read the parser', status: 'completed' },
      { step: 'fix the bug', status: 'in_progress' },
      { step: 'run the tests', status: 'pending' },
    ];
    const outcome = await session.callTool('update_plan', { explanation: 'found it', plan });
    expect(ToolResult.text(outcome.result)).toBe('Plan updated: 1 of 3 steps completed.\n[x] read the parser\n[>] fix the bug\n[ ] run the tests');
    expect(await session.plan()).toMatchObject({ explanation: 'found it', plan });
    expect(updates.find((update) => update.type === 'plan_updated')).toMatchObject({ sessionId: session.id, plan: { plan } });
    expect(session.prepare('update_plan', { plan })).toMatchObject({ status: 'ready' });
    expect(session.definitions.find((definition) => definition.id === 'update_plan')?.inputSchema).toMatchObject({ required: ['plan'] });
  });

  it('update_plan rules: at most 50 steps and one in_progress; a refused plan keeps the stored one', async () => {
    const fixture = await machine({});
    const session = await fixture.session();
    await session.callTool('update_plan', { plan: [{ step: 'one', status: 'pending' }] });
    const many = await session.callTool('update_plan', { plan: Array.from({ length: 51 }, (_, index) => ({ step: `s${index}`, status: 'pending' })) });
    expect(many.result.error?.code).toBe('invalid_arguments');
    const two = await session.callTool('update_plan', { plan: [{ step: 'a', status: 'in_progress' }, { step: 'b', status: 'in_progress' }] });
    expect(two.result.error?.code).toBe('invalid_arguments');
    expect(ToolResult.text(two.result)).toContain('at most one step may be in_progress at a time');
    const unknown = await session.callTool('update_plan', { plan: [{ step: 'a', status: 'done' }] });
    expect(unknown.result.error?.code).toBe('invalid_arguments');
    expect((await session.plan())?.plan).toStrictEqual([{ step: 'one', status: 'pending' }]);
  });
});
